import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Installs following staged rollouts with `zinc sync`: each repo lands on the version
/// its install id's draw gives, its attributes meet the conditions or not, `status` says
/// why, and a rollout file the client cannot trust moves nobody.
@Suite struct RolloutSyncTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try RolloutFleet.makeCatalog(in: dir)
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    func rollout(_ arguments: String...) throws {
        try dir.zinc(["rollout"] + arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"])
    }

    /// The `follows` of the repo's one bundle in `sync --json`.
    func sync(_ repo: String, _ extra: String...) throws -> (version: Int?, code: String?, reason: String?) {
        let output = try dir.zinc(["sync", "--repo", repo, "--json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let bundle = try #require((json["bundles"] as? [[String: Any]])?.first)
        let follows = bundle["follows"] as? [String: Any]
        return (bundle["version"] as? Int, follows?["code"] as? String, follows?["reason"] as? String)
    }

    @Test func twoHundredInstallsFollowTheirDrawsFromAServedCatalog() throws {
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        let fleet = try RolloutFleet(count: 200, catalogURL: server.url, in: dir)
        #expect(try fleet.walk(publish: { () }) == [])
    }

    @Test func theInstallIsWhoRepoInitSaysAndItsAttributesMeetTheConditions() throws {
        try zinc("repo_init", "ios", "--install-id", "player-7", "--attribute", "platform=ios", "--attribute", "app-version=2.4")
        try zinc("repo_init", "plain")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(dir.read("ios/repo.json"))) as? [String: Any])
        let install = try #require(state["install"] as? [String: Any])
        #expect(install["id"] as? String == "player-7")
        #expect(install["attributes"] as? [String: String] == ["platform": "ios", "app-version": "2.4"])
        let random = try #require(try JSONSerialization.jsonObject(with: Data(dir.read("plain/repo.json"))) as? [String: Any])
        #expect(((random["install"] as? [String: Any])?["id"] as? String)?.count == 32)

        try rollout("start", "--version", "2", "--percent", "100", "--platform", "ios", "--app-version", ">=2.1,<3")
        for repo in ["ios", "plain"] { try zinc("track", "--repo", repo, "--catalog", "cat", "--bundle", "Game") }
        let ios = try sync("ios")
        #expect(ios.version == 2 && ios.code == "drawn")
        #expect(ios.reason?.hasPrefix("the rollout's candidate: the install's slot ") == true)
        #expect(ios.reason?.hasSuffix(" of 10000 is below 100.00%") == true)
        #expect(try zinc("status", "--repo", "ios").hasSuffix("(up to date; follows version 2: \(ios.reason ?? ""))\n"))
        let plain = try sync("plain")
        #expect(plain.version == 1 && plain.code == "condition_unmet")
        // A sync's attributes are set over the repo's: for that sync only.
        #expect(try sync("plain", "--attribute", "platform=ios", "--attribute", "app-version=2.9").version == 2)
        #expect(try sync("plain").version == 1)
        #expect(
            try sync("ios", "--attribute", "app-version=3.0")
                == (1, "condition_unmet", "the rollout's control: app version 3.0 is outside >=2.1,<3"))
        let refused = try zinc.run(["repo_init", "bad", "--attribute", "platform"])
        #expect(refused.status != 0 && refused.stderr.contains("attribute 'platform'") && refused.stderr.contains("KEY=VALUE"))
        #expect(!FileManager.default.fileExists(atPath: dir.at("bad")))
    }

    /// Each file the client must not trust leaves a synced install where it is, says why,
    /// and gives a new install the pointer's version.
    @Test func aFileTheClientCannotTrustMovesNobody() throws {
        // On the control before the rollout, as most installs are.
        try zinc("repo_init", "control", "--install-id", "control")
        try zinc("track", "--repo", "control", "--catalog", "cat", "--bundle", "Game")
        #expect(try sync("control").version == 1)
        try rollout("start", "--version", "2", "--percent", "100")
        try zinc("repo_init", "held", "--install-id", "held")
        try zinc("track", "--repo", "held", "--catalog", "cat", "--bundle", "Game")
        #expect(try sync("held").version == 2)
        try rollout("set", "--percent", "100", "--note", "second serial")
        #expect(try sync("held").version == 2)
        let path = "cat/rollouts/Game~master.rollout"
        let good = try dir.read(path)
        let text = String(decoding: good, as: UTF8.self)
        let logs = dir.files(under: "cat/rollouts/log/Game~master").sorted()
        let hostile: [(what: String, bytes: [UInt8], reason: String)] = [
            ("garbage", Array("not a rollout\n".utf8), "does not start with 'zinc-rollout 1'"),
            (
                "an unknown candidate", Array(text.replacingOccurrences(of: "\ncandidate 2\n", with: "\ncandidate 9\n").utf8),
                "names version 9, which the index does not list"
            ),
            (
                "an out-of-range percentage", Array(text.replacingOccurrences(of: " 100.00\n", with: " 100.01\n").utf8),
                "is not a time in seconds and a percentage with two decimals"
            ),
            ("an older serial", try dir.read("cat/rollouts/log/Game~master/" + logs[0]), "older than the"),
            (
                "another distribution's file", Array(text.replacingOccurrences(of: "\ndistro master\n", with: "\ndistro beta\n").utf8),
                "describes distribution 'beta'"
            ),
        ]
        for (what, bytes, reason) in hostile {
            try dir.write(path, bytes)
            let held = try sync("held")
            #expect(held.version == 2 && held.code == "untrusted", "\(what)")
            #expect(held.reason?.contains(reason) == true, "\(what): \(held.reason ?? "")")
            // An older serial is older only to a repo that accepted a newer one.
            if what != "an older serial" {
                let control = try sync("control")
                #expect(control.version == 1 && control.code == "untrusted", "\(what)")
            }
        }
        // 1 GB (sparse): refused after 64 KiB, never read whole.
        let huge = try #require(FileHandle(forWritingAtPath: dir.at(path)))
        try huge.truncate(atOffset: 1 << 30)
        try huge.close()
        let held = try sync("held")
        #expect(held.version == 2 && held.code == "untrusted" && held.reason?.contains("65536") == true, "\(held.reason ?? "")")
        try zinc("repo_init", "new", "--install-id", "held")
        try zinc("track", "--repo", "new", "--catalog", "cat", "--bundle", "Game")
        #expect(try sync("new").version == 1)
        // The good file again: trusted, and the install stays on the candidate.
        try dir.write(path, good)
        #expect(try sync("held").code == "drawn")
    }

    @Test func aSignedCatalogsRolloutMustBeSignedByATrustedKey() throws {
        try zinc("keygen", "--out", "k")
        try zinc("sign", "--catalog", "cat", "--sign-key", "k")
        try zinc(
            "rollout", "start", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "2", "--percent", "100",
            "--sign-key", "k")
        try zinc("repo_init", "held", "--install-id", "held")
        try zinc("track", "--repo", "held", "--catalog", "cat", "--bundle", "Game", "--trusted-key", "k.pub")
        #expect(try sync("held").version == 2)
        let path = "cat/rollouts/Game~master.rollout"
        let text = String(decoding: try dir.read(path), as: UTF8.self)
        let unsigned = text.split(separator: "\n").filter { !$0.hasPrefix("key ") && !$0.hasPrefix("signature ") }
        let tampered = text.replacingOccurrences(of: "\nactor ", with: "\nactor x")
        for (bytes, reason) in [
            (unsigned.joined(separator: "\n") + "\n", "unsigned"), (tampered, "signature"),
        ] {
            try dir.write(path, bytes)
            let held = try sync("held")
            #expect(held.version == 2 && held.code == "untrusted" && held.reason?.contains(reason) == true, "\(held.reason ?? "")")
        }
    }
}
