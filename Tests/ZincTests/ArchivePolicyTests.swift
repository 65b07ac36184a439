import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Archives where a client needs one: a version has its archives while a distribution
/// or its `_D` pointer names it, and for the grace period after; `update_distro` writes
/// them before it moves the pointer, byte for byte what an import keeping all writes.
@Suite struct ArchivePolicyTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Bundle B at versions 1, 2 and 3, each adding a file; no distribution.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogGrowingByAFile(in: dir, versions: 3)
    }

    func point(_ distro: String, at version: Int, savePrevious: Bool = true) throws {
        try DistroUpdate(catalog, bundle: "B", distro: distro, to: .number(version), savePrevious: savePrevious).run()
    }

    /// The archive files recorded as having left use (or the index), across records.
    func retiredArchives() throws -> Set<String> {
        var files = Set<String>()
        for record in dir.files(under: "cat/retired") {
            let json = try JSONSerialization.jsonObject(with: Data(try dir.read("cat/retired/" + record))) as? [String: Any]
            files.formUnion((json?["files"] as? [String] ?? []).filter { $0.hasPrefix("archives/") })
        }
        return files
    }

    @Test func anImportWritesNoArchiveUntilADistributionNamesItsVersion() throws {
        #expect(try catalog.archivePolicy() == .pointed)
        #expect(!dir.exists("cat/" + ArchivePolicy.path), "the default needs no file")
        #expect(dir.files(under: "cat/archives").isEmpty)
        #expect(dir.files(under: "cat/lmfo") == ["B-1.json", "B-2.json", "B-3.json"], "the order is recorded all the same")
        try point("master", at: 2)
        #expect(dir.files(under: "cat/archives") == ["B-2.tar"])
        try point("master", at: 3)
        #expect(dir.files(under: "cat/archives") == ["B-2.tar", "B-3.tar"], "the previous version stays for a rollback")
        let report = try CatalogVerification(catalog).run()
        #expect(report.problems.isEmpty && report.archives == 2 && report.unarchived == 1)
        #expect(report.unarchivedNote == "1 version no distribution names has no archive: only a version a pointer names needs one")
    }

    /// Archives written when a pointer moves are the archives an import keeping all
    /// writes, flavors included, also once a version below was deleted (the order comes
    /// from the version's LMFO record, written at import).
    @Test func anArchiveWrittenLaterIsByteForByteWhatTheImportWouldHaveWritten() throws {
        try SampleContent.mixedTree(in: dir, at: "tree")
        let spec = try Flavorspec.parse(
            Array(#"{"text": ["+ lessons/*", "+ *.caf"], "media": ["- lessons/*", "+ *"]}"#.utf8), source: "spec.json")
        let options = BundleImportOptions(flavorspec: spec)
        var catalogs = [Catalog]()
        for (folder, policy) in [("all", ArchivePolicy.all), ("pointed", .pointed)] {
            let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at(folder)))
            try catalog.setArchivePolicy(policy)
            catalogs.append(catalog)
        }
        for step in 1...4 {
            try dir.write("tree/lessons/step.txt", SampleContent.text(4000 + step, word: "step\(step)"))
            try dir.write("tree/media/step.bin", SampleContent.noise(3000 + step, seed: UInt64(step)))
            for catalog in catalogs { _ = try catalog.updateBundle("M", from: dir.at("tree"), options: options) }
            if step == 3 {
                for catalog in catalogs { _ = try VersionDeletion(catalog, bundle: "M", versions: [.spec(.number(2))]).run() }
            }
        }
        #expect(dir.files(under: "pointed/archives").isEmpty)
        for version in [4, 1, 3] {
            try DistroUpdate(catalogs[1], bundle: "M", distro: "test", to: .number(version)).run()
        }
        let built = dir.files(under: "pointed/archives")
        #expect(built == ["M-1~media.tar", "M-1~text.tar", "M-3~media.tar", "M-3~text.tar", "M-4~media.tar", "M-4~text.tar"])
        for name in built {
            #expect(try dir.read("pointed/archives/" + name) == dir.read("all/archives/" + name), "\(name) differs")
        }
        #expect(try CatalogVerification(catalogs[1]).run().problems.isEmpty)
    }

    @Test func aPointerMovedOffAVersionRecordsItsArchiveAndCleanWaitsTheGracePeriod() throws {
        try point("master", at: 1)
        try point("master", at: 2)
        #expect(try retiredArchives().isEmpty, "version 1 is still _master")
        try point("master", at: 3)
        #expect(try retiredArchives() == ["archives/B-1.tar"])
        let waiting = try CatalogClean(catalog).plan().report
        #expect(waiting.files.isEmpty)
        #expect(waiting.waitingGroups.map(\.reason) == [.leftIndex])
        #expect(waiting.waiting.map(\.path) == ["archives/B-1.tar"])
        let removed = try CatalogClean(catalog, grace: .zero).run()
        #expect(removed.files.map(\.path) == ["archives/B-1.tar"])
        #expect(dir.files(under: "cat/archives") == ["B-2.tar", "B-3.tar"])
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    /// A version named again, then left again, waits from the last time it left: an
    /// older record of its archive (from the first time) does not let it go early.
    @Test func anArchiveWaitsFromTheLastTimeItLeftUse() throws {
        try point("master", at: 1)
        try point("master", at: 2, savePrevious: false)
        let hourAgo = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000
        for record in dir.files(under: "cat/retired") { try FileManager.default.removeItem(atPath: dir.at("cat/retired/" + record)) }
        try dir.write("cat/retired/\(hourAgo)-old.json", #"{"time": \#(hourAgo), "files": ["archives/B-1.tar"]}"#)
        try point("test", at: 1)
        try DistroDeletion(catalog, bundle: "B", distro: "test").run()
        let report = try CatalogClean(catalog).run()
        #expect(report.files.isEmpty)
        #expect(report.waiting.map(\.path) == ["archives/B-1.tar"])
        #expect(dir.exists("cat/archives/B-1.tar"))
    }

    @Test func keepingAllWritesTheMissingArchivesAndCleanKeepsThem() throws {
        try point("master", at: 3)
        #expect(try catalog.setArchivePolicy(.all) == ["archives/B-1.tar", "archives/B-2.tar"])
        #expect(try dir.read("cat/" + ArchivePolicy.path) == Array(#"{"keep":"all"}"#.utf8))
        try dir.write("src/v4.txt", "four")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar", "B-3.tar", "B-4.tar"])
        #expect(try CatalogClean(catalog, grace: .zero).run().files.isEmpty)
        #expect(try CatalogVerification(catalog).run().unarchived == 0)
        // Back to the default: clean takes what no pointer names (none recorded: from now).
        #expect(try catalog.setArchivePolicy(.pointed).isEmpty)
        #expect(
            try CatalogClean(catalog, grace: .zero).run().files.map(\.path) == ["archives/B-1.tar", "archives/B-2.tar", "archives/B-4.tar"])
    }

    @Test func aDamagedSettingIsAnErrorNamingTheFile() throws {
        try dir.write("cat/" + ArchivePolicy.path, #"{"keep": "some"}"#)
        #expect(
            throws: ZincError.corruptFile(path: dir.at("cat/config/archives.json"), reason: "'keep' must be 'pointed' or 'all'")
        ) { try catalog.archivePolicy() }
        try dir.write("cat/" + ArchivePolicy.path, "[]")
        #expect(throws: ZincError.corruptFile(path: dir.at("cat/config/archives.json"), reason: "not a JSON object")) {
            try catalog.archivePolicy()
        }
    }

    /// `publish` copies what the source holds; a version its destination's pointers
    /// named and the new index's do not gets a record there, and `--delete` removes its
    /// archive once the source's clean has.
    @Test func publishRecordsAndDeletesTheArchivesOfVersionsLeftUnnamed() throws {
        try point("master", at: 1)
        let destination = FileStorage(root: dir.at("pub"))
        _ = try CatalogPublish(catalog, to: destination).run()
        #expect(dir.files(under: "pub/archives") == ["B-1.tar"])
        try point("master", at: 2, savePrevious: false)
        _ = try CatalogClean(catalog, grace: .zero).run()
        let report = try CatalogPublish(catalog, to: destination, delete: true, grace: .zero).run()
        #expect(report.retired == ["archives/B-1.tar"])
        #expect(report.deleted.map(\.path) == ["archives/B-1.tar"])
        #expect(dir.files(under: "pub/archives") == ["B-2.tar"])
        #expect(try CatalogVerification(Catalog.open(destination)).run().problems.isEmpty)
    }
}
