import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The `retired/` records `clean` reads are written by other machines (and, at a publish's
/// destination, by another catalog's publisher): a record that cannot be right is taken
/// as absent, never as a reason to remove a file early, keep it for ever, or crash.
@Suite struct RetirementRecordTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    let version1 = ["lmfo/B-1.json", "manifests/B-1.json", "manifests/B-1.json.gz", "archives/B-1.tar"]

    /// Bundle B at versions 1 and 2, version 1 deleted without a record of its own.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir)
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        for record in dir.files(under: "cat/retired") { try FileManager.default.removeItem(atPath: dir.at("cat/retired/" + record)) }
    }

    private func writeRecord(_ name: String, _ json: String) throws {
        try dir.write("cat/retired/\(name).json", Array(json.utf8))
    }

    @Test(arguments: [
        "{\"time\": -9223372036854775808, \"files\": FILES}",  // would overflow, and remove at once
        "{\"time\": 9223372036854775807, \"files\": FILES}",  // would keep for ever
        "{\"time\": 0, \"files\": \"not a list\"}",
        "not JSON",
    ])
    func aDamagedRecordCountsAsNoneAndIsRemoved(_ template: String) throws {
        let files = "[" + version1.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        try writeRecord("1-damaged", template.replacingOccurrences(of: "FILES", with: files))
        let report = try CatalogClean(catalog, grace: .seconds(60)).run()
        #expect(report.files.isEmpty)
        let kinds = report.waitingGroups.map(\.reason)
        #expect(kinds == [.unrecorded], "\(report.waitingGroups)")
        #expect(!dir.exists("cat/retired/1-damaged.json"), "removed by the forced run")
        // The forced run recorded the files from now: they are out of the index since then.
        let again = try CatalogClean(catalog, grace: .seconds(60)).plan().report
        #expect(again.waitingGroups.map(\.reason) == [.leftIndex])
    }

    @Test func neverListedFilesAreSaidToBeAnInterruptedImportsAndWaitFromItsInterruption() throws {
        let stray = "objects/00/11/0011223344556677889900112233445566778899.gz"
        try dir.write("cat/" + stray, "zz")
        let interrupted = Int64(Date().timeIntervalSince1970 * 1000) - 30_000
        try writeRecord("\(interrupted)-import", "{\"time\": \(interrupted), \"files\": [\"\(stray)\"], \"never_listed\": true}")
        let waiting = try CatalogClean(catalog, grace: .seconds(60)).plan().report
        let neverListed = try #require(waiting.waitingGroups.first { $0.reason == .neverListed })
        #expect(neverListed.files.map(\.path) == [stray])
        #expect(abs(neverListed.until.timeIntervalSince1970 - Double(interrupted + 60_000) / 1000) < 0.01)
        let removed = try CatalogClean(catalog, grace: .seconds(20)).run()
        #expect(removed.files.map(\.path).contains(stray) && !dir.exists("cat/" + stray))
    }
}
