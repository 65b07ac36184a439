import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Every writing command, killed right after each change it makes to the catalog (each
/// file renamed into place, each file deleted; `ZINC_KILL_AFTER_COMMITS`): whatever
/// copy of the index a client reads then is complete (every archive of a version one of
/// its pointers names in place and valid: `verify` requires them), and running the
/// command again succeeds and leaves the four copies equal and the catalog verified.
@Suite struct CrashInjectionTests {
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        /// Brings a new catalog `cat` to the state the command starts from.
        let prepare: [[String]]
        let command: [String]
        /// How many changes the command makes at least (so the test kills that often).
        let minimumKills: Int
        /// Brings `next`, a copy of the prepared catalog, to what `publish` copies over `cat`.
        var source: [[String]] = []
        var testDescription: String { name }
    }

    /// Steps several scenarios take.
    static let importV2 = ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "v2"]
    /// Version 1 then named by no pointer.
    static let masterOnV2Alone = ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2", "--no-prev"]
    static let cleanNow = ["clean", "--catalog", "cat", "--force", "--grace", "0"]

    static let scenarios = [
        Scenario(
            name: "update_bundle", prepare: [], command: importV2, minimumKills: 14),
        Scenario(
            name: "update_distro", prepare: [importV2],
            command: ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "latest"],
            minimumKills: 4),
        // The version test points at has its archive; the one master leaves keeps it as
        // _master; the one _master leaves is recorded as out of use.
        Scenario(
            name: "promote",
            prepare: [
                importV2,
                ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2"],
                ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "v1", "--force"],
                ["update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "3"],
            ],
            command: ["promote", "--catalog", "cat", "B", "test", "master"], minimumKills: 5),
        // Rolling back to a version whose archive clean removed: written again first.
        Scenario(
            name: "update_distro rebuilding",
            prepare: [importV2, masterOnV2Alone, cleanNow],
            command: ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"],
            minimumKills: 5),
        Scenario(
            name: "delete_distro", prepare: [], command: ["delete_distro", "--catalog", "cat", "--id", "B", "--name", "master"],
            minimumKills: 4),
        Scenario(
            name: "delete_bundle",
            prepare: [importV2, masterOnV2Alone],
            command: ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "unreferenced"], minimumKills: 5),
        Scenario(
            name: "clean",
            prepare: [
                importV2,
                masterOnV2Alone,
                ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"],
            ],
            command: cleanNow, minimumKills: 6),
        // The archive of a version no pointer names any more, and nothing else.
        Scenario(
            name: "clean of an archive out of use",
            prepare: [importV2, masterOnV2Alone],
            command: cleanNow, minimumKills: 2),
        // A publish whose new index names another version: its archive goes up before the
        // index, and --delete takes the old one only once no copy of the index names it.
        Scenario(
            name: "publish", prepare: [], command: ["publish", "--catalog", "next", "--to", "cat", "--delete", "--grace", "0"],
            minimumKills: 10,
            source: [importV2, masterOnV2Alone, cleanNow]),
    ]

    @Test(arguments: scenarios)
    func aKillAfterAnyChangeLeavesEveryIndexCopyCompleteAndARerunFinishes(_ scenario: Scenario) throws {
        let dir = try TemporaryDirectory()
        for i in 0..<6 {
            try dir.write("v1/f\(i).json", SampleContent.text(3000 + i, word: "one\(i)"))
            try dir.write("v2/f\(i).json", SampleContent.text(3000 + i, word: i < 3 ? "one\(i)" : "two\(i)"))
        }
        try dir.write("v2/new.bin", SampleContent.noise(5000, seed: 3))
        try dir.zinc.run(["create_catalog", "--id", "com.example.crash", "--dest", "template"])
        for arguments in [
            ["update_bundle", "--catalog", "template", "--name", "B", "--source", "v1"],
            ["update_distro", "--catalog", "template", "--id", "B", "--name", "master", "--version", "1"],
        ]
            + scenario.prepare.map({ $0.map { $0 == "cat" ? "template" : $0 } })
        {
            #expect(
                try dir.zinc.run(
                    arguments + ["--no-stat-cache"].filter { _ in arguments[0] == "update_bundle" }
                ).status == 0, "\(arguments)")
        }
        if !scenario.source.isEmpty {
            try FileManager.default.copyItem(atPath: dir.at("template"), toPath: dir.at("next"))
            for arguments in scenario.source.map({ $0.map { $0 == "cat" ? "next" : $0 } }) {
                let result = try dir.zinc.run(
                    arguments + ["--no-stat-cache"].filter { _ in arguments[0] == "update_bundle" })
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
        }

        var kills = 0
        for n in 1...200 {
            try? FileManager.default.removeItem(atPath: dir.at("cat"))
            try FileManager.default.copyItem(atPath: dir.at("template"), toPath: dir.at("cat"))
            let result = try dir.zinc.run(scenario.command, environment: ["ZINC_KILL_AFTER_COMMITS": "\(n)"])
            guard result.killed else {
                #expect(result.status == 0, "\(scenario.command) without a kill: \(result.stderr)")
                break
            }
            kills += 1
            try Self.expectEveryIndexCopyComplete(dir, after: "\(scenario.name) killed after change \(n)")
            let rerun = try dir.zinc.run(scenario.command)
            // Deleting a distribution that the killed run already deleted is an error, as
            // any missing distribution is; it still repairs the copies first.
            let alreadyDone =
                scenario.name == "delete_distro" && rerun.stderr.hasSuffix("zinc: error: bundle 'B' has no distribution 'master'\n")
            #expect(rerun.status == 0 || alreadyDone, "re-run after a kill after change \(n): \(rerun.stderr)")
            try Self.expectCopiesEqual(dir, after: "the re-run after change \(n)")
            let verify = try dir.zinc.run(["verify", "--catalog", "cat"])
            #expect(verify.status == 0, "after the re-run after change \(n): \(verify.stdout)")
        }
        #expect(kills >= scenario.minimumKills, "\(scenario.name) made only \(kills) changes")
        print("\(scenario.name): killed after each of its \(kills) changes")
    }

    /// Each of the four index copies, taken as the whole index (what a client that read
    /// only that copy relies on), names nothing that is missing or damaged.
    static func expectEveryIndexCopyComplete(_ dir: TemporaryDirectory, after step: String) throws {
        var contents = [[UInt8]: [String]]()
        for name in CatalogIndex.fileNames {
            var bytes = try dir.read("cat/" + name)
            if name.hasSuffix(".gz") { bytes = try GzipDecompressor.decompress(bytes) }
            contents[bytes, default: []].append(name)
        }
        if contents.count == 1 {
            let report = try CatalogVerification(Catalog.open(at: CatalogLocation(rootPath: dir.at("cat")))).run()
            #expect(report.problems.isEmpty, "\(step): \(report.problems)")
            return
        }
        // Copies that differ: each is checked as the whole index of a copy of the catalog.
        for (bytes, names) in contents {
            let view = try TemporaryDirectory()
            try FileManager.default.removeItem(atPath: view.path)
            try FileManager.default.copyItem(atPath: dir.at("cat"), toPath: view.path)
            for name in CatalogIndex.fileNames {
                try view.write(name, name.hasSuffix(".gz") ? GzipCompressor.compress(bytes) : bytes)
            }
            let report = try CatalogVerification(Catalog.open(at: CatalogLocation(rootPath: view.path))).run()
            #expect(report.problems.isEmpty, "\(step): a client reading \(names) would find \(report.problems)")
        }
    }

    static func expectCopiesEqual(_ dir: TemporaryDirectory, after step: String) throws {
        let canonical = try dir.read("cat/catalog.json")
        for name in CatalogIndex.fileNames.dropFirst() {
            var bytes = try dir.read("cat/" + name)
            if name.hasSuffix(".gz") { bytes = try GzipDecompressor.decompress(bytes) }
            #expect(bytes == canonical, "after \(step), \(name) differs from catalog.json")
        }
    }
}
