import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `zinc rollout …` as a release engineer types it: the documented option names, the
/// state in words and JSON, the log, and `update_distro` refused while a rollout is live.
@Suite struct RolloutCommandTests {
    let dir: TemporaryDirectory

    /// Game at versions 1 and 2; master points at 1.
    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try makeCatalogWithMaster(in: dir, bundle: "Game")
        try dir.write("src/new.txt", "level 2")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "src"])
    }

    func rollout(_ arguments: String...) throws -> String {
        try dir.zinc(["rollout"] + arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"])
    }

    func status() throws -> [String: Any] {
        let output = try rollout("status", "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func drivesARolloutFromStartToComplete() throws {
        #expect(try rollout("status") == "'Game' distribution 'master' has no rollout\n")
        #expect(try rollout("status", "--json") == "null\n")
        let started = try rollout(
            "start", "--version", "2", "--steps", "1,5,20", "--every", "24h", "--platform", "ios", "--only", "cohort=beta",
            "--actor", "alice", "--note", "first wave")
        #expect(
            started.hasPrefix(
                "Rollout of 'Game' distribution 'master': active, version 2 over version 1\n  1.00% of installs take the candidate; 5.00% from "
            ))
        #expect(started.contains("\n  only installs with platform ios, cohort=beta\n"))
        #expect(started.contains(", unsigned, expires "))
        #expect(started.hasSuffix(": first wave\n") && started.contains("last change: start by alice at "))
        #expect(
            try dir.zinc(["list", "--catalog", "cat"])
                == "Game [1=(master), 2]\n  rollout of 'master': version 2 over 1 (active, 1.00%)\n")
        var json = try status()
        #expect(json["state"] as? String == "active" && json["candidate"] as? Int == 2 && json["control"] as? Int == 1)
        #expect(json["pointer"] as? Int == 1 && json["applies"] as? Bool == true && json["percentage"] as? String == "1.00")
        #expect((json["steps"] as? [[String: Any]])?.map { $0["percentage"] as? String } == ["1.00", "5.00", "20.00"])

        let refused = try dir.zinc.run(
            ["update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "2"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "zinc: error: rollout of distribution 'master' of 'Game': a rollout of version 2 is active; complete or halt it "
                + "(`zinc rollout complete` or `halt`), or pass --force to move the pointer anyway, which ends the rollout\n")

        #expect(try rollout("pause", "--actor", "bob").contains("(paused at "))
        #expect(try rollout("resume", "--actor", "bob").contains(": active, "))
        #expect(try rollout("set", "--percent", "50", "--actor", "bob").contains("\n  50.00% of installs take the candidate\n"))
        #expect(
            try rollout("halt", "--actor", "bob", "--note", "crash spike").contains("\n  every install follows the control, version 1\n"))
        #expect(try rollout("complete", "--actor", "carol").contains("\n  complete: 'master' points at version 2\n"))
        json = try status()
        #expect(json["state"] as? String == "complete" && json["pointer"] as? Int == 2 && json["applies"] as? Bool == false)
        #expect(try dir.zinc(["list", "--catalog", "cat"]) == "Game [1=(_master), 2=(master)]\n")

        let log = try rollout("log").split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(log.first?.prefix(4) == ["when", "action", "by", "state"])
        #expect(
            log.dropFirst().map { [$0[3], $0[4], $0[5]] } == [
                ["start", "alice", "active"], ["pause", "bob", "paused"], ["resume", "bob", "active"], ["set", "bob", "active"],
                ["halt", "bob", "halted"], ["complete", "carol", "complete"],
            ])
        #expect(try dir.zinc(["verify", "--catalog", "cat"]).hasSuffix(": no problems\n"))
    }

    @Test func refusesOptionsThatDoNotMakeARollout() throws {
        for (arguments, message) in [
            (["start", "--version", "2"], "give --percent, or --steps with --every"),
            (["start", "--version", "2", "--steps", "1,5"], "--steps needs --every"),
            (
                ["start", "--version", "2", "--percent", "101"],
                "--percent: '101' is not a percentage from 0 to 100 with at most two decimals"
            ),
            (["start", "--version", "2", "--steps", "5,1", "--every", "1h"], "5.00,1.00"),
            (["start", "--version", "2", "--steps", "1,5", "--every", "1w"], "--every: '1w' is not a positive interval"),
            (["start", "--version", "2", "--percent", "5", "--app-version", "2.x"], "--app-version '2.x' is not a range"),
            (["set", "--percent", "5"], "there is no rollout; start one with `zinc rollout start`"),
        ] {
            let result = try dir.zinc.run(
                ["rollout"] + arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"])
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!dir.exists("cat/rollouts"), "nothing was written")
    }

    /// `status --install-id` and `--installs`: for each install the version it follows and
    /// the reason, from the client's own selection against the salt in the rollout file.
    @Test func saysWhichVersionEachInstallFollowsAndWhy() throws {
        _ = try rollout("start", "--version", "2", "--percent", "50", "--platform", "ios")
        let file = String(decoding: try dir.read("cat/rollouts/Game~master.rollout"), as: UTF8.self)
        let saltLine = try #require(file.split(separator: "\n").first { $0.hasPrefix("salt ") })
        let salt = try #require(Hex.decode(saltLine.dropFirst("salt ".count), count: 16))
        let slots = (0..<100).map { ("install-\($0)", RolloutSelection.slot(of: "install-\($0)", salt: salt)) }
        let (drawn, drawnSlot) = try #require(slots.first { $0.1 < 5_000 })
        let (notDrawn, notDrawnSlot) = try #require(slots.first { $0.1 >= 5_000 })

        try dir.write("installs.txt", "# support export\n\n\(drawn) platform=ios\n\(notDrawn)\tplatform=ios\n\(drawn) platform=android\n")
        let output = try rollout("status", "--installs", "installs.txt")
        #expect(output.hasPrefix("Rollout of 'Game' distribution 'master': active, version 2 over version 1\n"))
        #expect(
            output.split(separator: "\n").suffix(3) == [
                "install \(drawn) follows version 2, the rollout's candidate: the install's slot \(drawnSlot) of 10000 is below 50.00%",
                "install \(notDrawn) follows version 1, the rollout's control: the install's slot \(notDrawnSlot) of 10000 is not below 50.00%",
                "install \(drawn) follows version 1, the rollout's control: platform android is not ios",
            ])
        // The rollout as `status` shows it, then the install's line.
        let one = try rollout("status", "--install-id", drawn, "--attribute", "platform=ios")
        #expect(
            one == (try rollout("status"))
                + "install \(drawn) follows version 2, the rollout's candidate: the install's slot \(drawnSlot) of 10000 is below 50.00%\n")

        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try rollout("status", "--install-id", notDrawn, "--attribute", "platform=ios", "--json").utf8))
                as? [String: Any])
        #expect(json["state"] as? String == "active")
        let install = try #require((json["installs"] as? [[String: Any]])?.first)
        #expect(install["id"] as? String == notDrawn && install["attributes"] as? [String] == ["platform=ios"])
        #expect(install["version"] as? Int == 1 && install["code"] as? String == "not_drawn" && install["slot"] as? Int == notDrawnSlot)
        #expect(
            install["reason"] as? String
                == "the rollout's control: the install's slot \(notDrawnSlot) of 10000 is not below 50.00%")
    }

    @Test func refusesABadInstallsLineNamingItsFileAndLine() throws {
        _ = try rollout("start", "--version", "2", "--percent", "50")
        try dir.write("installs.txt", "# support export\nabc platform=ios\n\ndef platform\n")
        let result = try dir.zinc.run(
            ["rollout", "status", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--installs", "installs.txt"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "zinc: error: installs.txt, line 4: invalid attribute 'platform': it must be KEY=VALUE; "
                + "each line is an install: ID [KEY=VALUE ...]\n")
        let tooLong = try dir.zinc.run(
            [
                "rollout", "status", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--install-id",
                String(repeating: "a", count: 129),
            ])
        #expect(tooLong.status == 1)
        #expect(tooLong.stderr.contains("invalid install id 'aaa"))
    }
}
