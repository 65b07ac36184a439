import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `zinc rollout start` and `zinc rollout complete`, killed right after each change they
/// make to the catalog (`ZINC_KILL_AFTER_COMMITS`, as `CrashInjectionTests`): every copy of
/// the index a client may read is complete, and with the rollout file (if written) every
/// install follows the control or the candidate, never another version; `rollout status`
/// reads the state; and running the command again finishes the job.
@Suite struct RolloutCrashInjectionTests {
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        /// `rollout start` or `rollout complete`.
        let action: String
        let signed: Bool
        /// How many changes the command makes at least (so the test kills that often).
        let minimumKills: Int
        var testDescription: String { name }
    }

    /// Start builds version 2's archive (the catalog keeps archives only for versions in
    /// use) before the rollout file and its log copy (the import signed its manifest);
    /// complete moves the index's pointer (four copies, signed: the index signature
    /// first), then marks the file complete.
    static let scenarios = [
        Scenario(name: "rollout start", action: "start", signed: false, minimumKills: 3),
        Scenario(name: "rollout start, signed", action: "start", signed: true, minimumKills: 3),
        Scenario(name: "rollout complete", action: "complete", signed: false, minimumKills: 6),
        Scenario(name: "rollout complete, signed", action: "complete", signed: true, minimumKills: 7),
    ]

    static let control = 1
    static let candidate = 2
    /// Installs drawn at the rollout's 50 %: some on each side.
    static let installs = try! (0..<64).map { try InstallIdentity(id: "install-\($0)") }

    @Test(arguments: scenarios)
    func aKillAfterAnyChangeLeavesInstallsOnTheControlOrTheCandidateAndARerunFinishes(_ scenario: Scenario) throws {
        let dir = try TemporaryDirectory()
        let signing = scenario.signed ? ["--sign-key", "k"] : []
        let trusting = scenario.signed ? ["--trusted-key", "k.pub"] : []
        if scenario.signed { try dir.zinc(["keygen", "--out", "k"]) }
        try SampleContent.basicAdjectives(in: dir, at: "v1")
        try SampleContent.basicAdjectives(in: dir, at: "v2")
        try dir.write("v2/levels/new.bin", SampleContent.noise(5000, seed: 3))
        for arguments in [
            ["create_catalog", "--id", "com.example.crash", "--dest", "template"],
            ["update_bundle", "--catalog", "template", "--bundle", "B", "--source", "v1"],
            ["update_distro", "--catalog", "template", "--bundle", "B", "--distro", "master", "--version", "1"],
            ["update_bundle", "--catalog", "template", "--bundle", "B", "--source", "v2"],
        ] {
            try dir.zinc(arguments + signing)
        }
        let target = ["--catalog", "cat", "--bundle", "B", "--distro", "master"]
        let start = ["rollout", "start"] + target + ["--version", "2", "--percent", "50"] + signing
        if scenario.action == "complete" {
            try dir.zinc(start.map { $0 == "cat" ? "template" : $0 })
        } else {
            #expect(dir.files(under: "template/archives") == ["B-1.tar"], "version 2 has no archive until the rollout starts")
        }
        let command = scenario.action == "start" ? start : ["rollout", "complete"] + target + signing
        let keys = try scenario.signed ? [PublicKey.load(path: dir.at("k.pub"))] : []

        var kills = 0
        for n in 1...200 {
            try? FileManager.default.removeItem(atPath: dir.at("cat"))
            try FileManager.default.copyItem(atPath: dir.at("template"), toPath: dir.at("cat"))
            let result = try dir.zinc.run(command, environment: ["ZINC_KILL_AFTER_COMMITS": "\(n)"])
            guard result.killed else {
                #expect(result.status == 0, "\(command) without a kill: \(result.stderr)")
                break
            }
            kills += 1
            let step = "\(scenario.name) killed after change \(n)"
            try CrashInjectionTests.expectEveryIndexCopyComplete(dir, after: step)
            if scenario.signed { try Self.expectSignedButTheIndex(dir, trustedKeys: keys, after: step) }
            try Self.expectInstallsOnControlOrCandidate(dir, trustedKeys: keys, after: step)
            let status = try Self.status(dir)
            if let status {
                #expect(status["control"] as? Int == Self.control && status["candidate"] as? Int == Self.candidate, "\(step)")
                #expect([Self.control, Self.candidate].contains(status["pointer"] as? Int ?? 0), "\(step): \(status)")
            } else {
                #expect(scenario.action == "start", "\(step): complete starts from a rollout file")
            }

            let rerun = try dir.zinc.run(command)
            #expect(rerun.status == 0, "re-run after a kill after change \(n): \(rerun.stderr)")
            try CrashInjectionTests.expectCopiesEqual(dir, after: "the re-run after change \(n)")
            let verify = try dir.zinc.run(["verify", "--catalog", "cat"] + trusting)
            #expect(verify.status == 0, "after the re-run after change \(n): \(verify.stdout)")
            let finished = try #require(try Self.status(dir), "after the re-run after change \(n)")
            #expect(finished["candidate"] as? Int == Self.candidate, "after the re-run after change \(n)")
            if scenario.action == "start" {
                #expect(finished["state"] as? String == "active" && finished["applies"] as? Bool == true, "\(finished)")
                #expect(finished["pointer"] as? Int == Self.control, "after the re-run after change \(n)")
            } else {
                #expect(finished["state"] as? String == "complete" && finished["pointer"] as? Int == Self.candidate, "\(finished)")
                let index = try GzipDecompressor.decompress(dir.read("cat/catalog.json.gz"))
                #expect(
                    try OldClientReading.distributions(index: index, bundle: "B") == ["master": Self.candidate, "_master": Self.control])
            }
        }
        #expect(kills >= scenario.minimumKills, "\(scenario.name) made only \(kills) changes")
        print("\(scenario.name): killed after each of its \(kills) changes")
    }

    /// Every signature a client that trusts the key checks holds (the manifests', the
    /// rollout file's) but the index's: killed between the index signature and the index
    /// copies it covers, such a client finds it covers another index, refuses the index
    /// and keeps the version it has (the control or the candidate) until the re-run writes
    /// the index the signature covers.
    static func expectSignedButTheIndex(_ dir: TemporaryDirectory, trustedKeys: [PublicKey], after step: String) throws {
        let report = try CatalogVerification(Catalog.open(at: CatalogLocation(rootPath: dir.at("cat"))), trustedKeys: trustedKeys).run()
        let indexFiles = Set(CatalogIndex.fileNames + [IndexSignature.path])
        let problems = report.problems.filter { !indexFiles.contains($0.path) }
        #expect(problems.isEmpty, "\(step): \(problems)")
    }

    /// `zinc rollout status --json` of `cat`'s B master: nil when it has no rollout.
    static func status(_ dir: TemporaryDirectory) throws -> [String: Any]? {
        let output = try dir.zinc(
            ["rollout", "status", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--json"])
        return try JSONSerialization.jsonObject(with: Data(output.utf8), options: .fragmentsAllowed) as? [String: Any]
    }

    /// With each copy of the index as a client may read it, and the rollout file as it
    /// stands (checked against the key in a signed catalog), every install follows the
    /// control or the candidate (by the clients' own selection), and a rollout file names
    /// exactly those two.
    static func expectInstallsOnControlOrCandidate(_ dir: TemporaryDirectory, trustedKeys: [PublicKey], after step: String) throws {
        let path = dir.at("cat/" + RolloutFile.path(bundle: "B", distro: "master"))
        var rollout: Rollout?
        if FileManager.default.fileExists(atPath: path) {
            let bytes = try dir.read("cat/" + RolloutFile.path(bundle: "B", distro: "master"))
            let read =
                try trustedKeys.isEmpty
                ? RolloutFile.parse(bytes, path: path) : RolloutFile.verified(bytes, path: path, trusted: trustedKeys)
            #expect(read.control == control && read.candidate == candidate, "\(step): \(read)")
            rollout = read
        }
        let now = Int64(Date().timeIntervalSince1970)
        for name in CatalogIndex.fileNames {
            var index = try dir.read("cat/" + name)
            if name.hasSuffix(".gz") { index = try GzipDecompressor.decompress(index) }
            let pointer = try #require(try OldClientReading.distributions(index: index, bundle: "B")["master"], "\(step): \(name)")
            #expect([control, candidate].contains(pointer), "\(step): \(name) points master at \(pointer)")
            let followed = Set(installs.map { RolloutSelection.choose(for: $0, rollout: rollout, pointer: pointer, at: now).version })
            #expect(followed.isSubset(of: [control, candidate]), "\(step): with \(name), installs follow \(followed.sorted())")
        }
    }
}
