import Foundation
import Testing
import ZincTestSupport

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
        try zincSucceeds(["update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "src"], in: dir.path)
    }

    func rollout(_ arguments: String...) throws -> String {
        try zincSucceeds(["rollout"] + arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"], in: dir.path)
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
            try zincSucceeds(["list", "--catalog", "cat"], in: dir.path)
                == "Game [1=(master), 2]\n  rollout of 'master': version 2 over 1 (active, 1.00%)\n")
        var json = try status()
        #expect(json["state"] as? String == "active" && json["candidate"] as? Int == 2 && json["control"] as? Int == 1)
        #expect(json["pointer"] as? Int == 1 && json["applies"] as? Bool == true && json["percentage"] as? String == "1.00")
        #expect((json["steps"] as? [[String: Any]])?.map { $0["percentage"] as? String } == ["1.00", "5.00", "20.00"])

        let refused = try ZincBinary.run(
            ["update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "2"], in: dir.path)
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
        #expect(try zincSucceeds(["list", "--catalog", "cat"], in: dir.path) == "Game [1=(_master), 2=(master)]\n")

        let log = try rollout("log").split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(log.first?.prefix(4) == ["when", "action", "by", "state"])
        #expect(
            log.dropFirst().map { [$0[3], $0[4], $0[5]] } == [
                ["start", "alice", "active"], ["pause", "bob", "paused"], ["resume", "bob", "active"], ["set", "bob", "active"],
                ["halt", "bob", "halted"], ["complete", "carol", "complete"],
            ])
        #expect(try zincSucceeds(["verify", "--catalog", "cat"], in: dir.path).hasSuffix(": no problems\n"))
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
            let result = try ZincBinary.run(
                ["rollout"] + arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"], in: dir.path)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!dir.exists("cat/rollouts"), "nothing was written")
    }
}
