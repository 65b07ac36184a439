import Foundation
import Testing
import Zinc
import ZincTestSupport

/// An import killed at any moment leaves the catalog valid and every earlier version
/// intact, and the next import simply works.
@Suite struct InterruptionTests {
    @Test func killingAnImportAtAnyMomentDamagesNothing() throws {
        let dir = try TemporaryDirectory()
        try dir.zinc.run(["create_catalog", "--id", "com.example.kill", "--dest", "cat"])
        for i in 0..<40 { try dir.write("v1/f\(i).json", SampleContent.text(20_000 + i, word: "one\(i)")) }
        #expect(
            try dir.zinc.run(
                ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "v1", "--no-stat-cache"]).status == 0)
        // Version 2 is big enough that a kill lands in every phase: hashing, storing, archive, manifest, index.
        for i in 0..<300 {
            try dir.write(
                "v2/f\(i).bin",
                i % 3 == 0
                    ? SampleContent.text(60_000, word: "two\(i)")
                    : SampleContent.noise(60_000, seed: UInt64(1000 + i)))
        }
        var killedBeforeCommit = 0
        for delay in [0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.12, 0.2] {
            let process = try ZincBinary.start(
                [
                    "update_bundle", "--catalog", "cat", "--name", "B", "--source", "v2",
                    "--no-stat-cache", "--force",
                ], in: dir.path)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killedBeforeCommit += 1 }

            let verify = try dir.zinc.run(["verify", "--catalog", "cat"])
            #expect(verify.status == 0, "after a kill at \(delay) s: \(verify.stdout)\(verify.stderr)")
            let clone = try dir.zinc.run(
                [
                    "clone_bundle", "--catalog", "cat", "--name", "B", "--version", "1",
                    "--dest", "out-\(delay)", "--quiet",
                ])
            #expect(clone.status == 0)
            for i in 0..<40 {
                #expect(try dir.read("out-\(delay)/com.example.kill.B-1/f\(i).json") == dir.read("v1/f\(i).json"))
            }
        }
        #expect(killedBeforeCommit > 0, "no kill landed before the import finished")
        let after = try dir.zinc.run(
            [
                "update_bundle", "--catalog", "cat", "--name", "B", "--source", "v2",
                "--no-stat-cache", "--force",
            ])
        #expect(after.status == 0)
        try dir.zinc.succeeds(["verify", "--catalog", "cat"])
    }

    /// Every writing command killed at random moments, one after another on one catalog
    /// (each kill leaves what the next command starts from): after each, every copy of
    /// the index is complete on its own; at the end, re-runs finish and all verifies.
    @Test func randomKillsOfEveryWritingCommandLeaveEveryIndexCopyComplete() throws {
        let dir = try TemporaryDirectory()
        try dir.zinc.run(["create_catalog", "--id", "com.example.kill", "--dest", "cat"])
        for tree in 0..<2 {
            for i in 0..<80 {
                try dir.write(
                    "t\(tree)/f\(i).bin",
                    i % 2 == 0
                        ? SampleContent.text(12_000, word: "t\(tree)-\(i)")
                        : SampleContent.noise(12_000, seed: UInt64(tree * 100 + i)))
            }
        }
        let commands: [[String]] = [
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "t0", "--force", "--no-stat-cache"],
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "t1", "--force", "--no-stat-cache"],
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "latest"],
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "unreferenced"],
            ["clean", "--catalog", "cat", "--force", "--grace", "0"],
        ]
        try dir.zinc.succeeds(commands[0])
        // How long each takes uninterrupted, to spread the kills over its whole run: the
        // median of three runs, since one run slowed by the disk (a flush, a burst of
        // deletions elsewhere) would send most kills after the command has finished.
        var durations = [TimeInterval]()
        for command in commands {
            var runs = [TimeInterval]()
            for _ in 0..<3 {
                let start = Date()
                let result = try dir.zinc.run(command)
                #expect(result.status == 0, "\(command): \(result.stderr)")
                runs.append(Date().timeIntervalSince(start))
            }
            durations.append(runs.sorted()[1])
        }
        var random = SplitMix(seed: 2026)
        var kills = 0
        for round in 0..<120 {
            let which = round % commands.count
            let start = Date()
            let process = try ZincBinary.start(commands[which], in: dir.path)
            Thread.sleep(forTimeInterval: durations[which] * 0.9 * random.nextUnit())
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                kills += 1
            } else {
                // It finished first: the machine is quicker now than when it was timed
                // (other suites ran beside it then), so later kills come sooner.
                durations[which] = min(durations[which], Date().timeIntervalSince(start))
            }
            try CrashInjectionTests.expectEveryIndexCopyComplete(dir, after: "\(commands[which][0]) killed in round \(round)")
        }
        #expect(kills >= 70, "only \(kills) of 120 kills landed before the command finished")
        print("random kills: \(kills) of 120 landed before the command finished")
        for command in commands {
            let result = try dir.zinc.run(command)
            #expect(result.status == 0, "\(command) after the kills: \(result.stderr)")
        }
        try CrashInjectionTests.expectCopiesEqual(dir, after: "the re-runs")
        let verify = try dir.zinc.run(["verify", "--catalog", "cat"])
        #expect(verify.status == 0, "\(verify.stdout)")
    }
}
