import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// Issue #38's footguns of publishing and cleaning, through the built `zinc`: a grace
/// period counted from when the destination's index dropped the files, dry runs that
/// list what the real run does, an interrupted import that says what it committed, and
/// an empty catalog inside a source folder.
@Suite struct PublishFootgunTests {
    let dir: TemporaryDirectory

    /// Catalog `cat` with versions 1 and 2 of bundle B (one file changing).
    init() throws {
        dir = try TemporaryDirectory()
        try dir.zinc(["create_catalog", "--id", "com.example.pub", "--dest", "cat"])
        // Archives of every version, as these tests look at unnamed versions' archives.
        try dir.zinc(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        try dir.write("src/same.bin", SampleContent.noise(20_000, seed: 1))
        for version in 1...2 {
            try dir.write("src/changing.txt", SampleContent.text(3000 + version, word: "v\(version)"))
            try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        }
    }

    @Test func theGracePeriodStartsWhenTheDestinationsIndexDroppedTheFiles() throws {
        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        try dir.zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        // The source removes its files at once (publish --delete keeps what the source has).
        try dir.zinc(["clean", "--catalog", "cat", "--force", "--grace", "0", "--quiet"])
        // Without --delete the index drops version 1, and the destination records when.
        let dropped = try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        #expect(
            dropped.contains(
                "Recorded that 6 files of versions the new index no longer lists left it now; publish --delete removes them from 20"),
            "\(dropped)")
        let records = dir.files(under: "live").filter { $0.hasPrefix("retired/") }
        #expect(records.count == 1)
        let record = try JSONValue.parse(dir.read("live/" + records[0]))
        let named = record.objectValue?["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(named.contains("manifests/B-1.json") && named.contains("archives/B-1.tar"), "\(named)")

        // One --delete run once the grace period has passed since then, not two.
        Thread.sleep(forTimeInterval: 2.2)
        let removed = try dir.zinc(
            ["publish", "--catalog", "cat", "--to", "live", "--delete", "--grace", "2", "--quiet"])
        #expect(!dir.exists("live/archives/B-1.tar") && !dir.exists("live/manifests/B-1.json"), "\(removed)")
        try dir.zinc(["verify", "--catalog", "live"])
    }

    @Test func aDestinationWithoutARecordCountsFromNow() throws {
        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        try dir.zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        // The source removes its files at once (publish --delete keeps what the source has).
        try dir.zinc(["clean", "--catalog", "cat", "--force", "--grace", "0", "--quiet"])
        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        // As if an older zinc had published: no record of when the files left.
        for record in dir.files(under: "live").filter({ $0.hasPrefix("retired/") }) {
            try FileManager.default.removeItem(atPath: dir.at("live/" + record))
        }
        let kept = try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--delete", "--quiet"])
        #expect(kept.contains("with no record of when they left it: counted from now"), "\(kept)")
        #expect(dir.exists("live/archives/B-1.tar"))
        // That run recorded them: the next one says when they left.
        let again = try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--delete", "--quiet"])
        #expect(again.contains("that left the index at "), "\(again)")
    }

    @Test func publishDryRunListsTheFilesOfTheSamePlan() throws {
        let summary = try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--dry-run"])
        let objects = dir.files(under: "cat").filter { $0.hasPrefix("objects/") }.count
        #expect(summary.contains("  + objects: \(objects) files ("), "\(summary)")
        #expect(summary.contains("  + manifests: 4 files ("), "\(summary)")
        #expect(!dir.exists("live/catalog.json"))
        let verbose = try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--dry-run", "--verbose"])
        #expect(verbose.contains("  + manifests/B-2.json.gz ("), "\(verbose)")

        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        try dir.zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        // The source removes its files at once (publish --delete keeps what the source has).
        try dir.zinc(["clean", "--catalog", "cat", "--force", "--grace", "0", "--quiet"])
        // What the dry run says --delete --grace 0 removes is what the real run removes.
        let planned = try dir.zinc(
            ["publish", "--catalog", "cat", "--to", "live", "--dry-run", "--delete", "--grace", "0", "--verbose"])
        let real = try dir.zinc(
            ["publish", "--catalog", "cat", "--to", "live", "--delete", "--grace", "0", "--verbose", "--quiet"])
        let deletions = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("  - ") }.sorted() }
        #expect(!deletions(planned).isEmpty && deletions(planned) == deletions(real), "\(planned)\n\(real)")
    }

    @Test func pruneDryRunCountsWhatThePruneRemovesSignaturesIncluded() throws {
        try dir.zinc(["keygen", "--out", "k"])
        try dir.zinc(["sign", "--catalog", "cat", "--sign-key", "k"])
        let planned = try dir.zinc(
            ["prune", "--catalog", "cat", "--keep-last", "1", "--grace", "0", "--dry-run", "--json"])
        let real = try dir.zinc(
            ["prune", "--catalog", "cat", "--keep-last", "1", "--grace", "0", "--sign-key", "k", "--json"])
        let wouldFree = try JSONValue.parse(Array(planned.utf8)).objectValue?["would_free"]?.objectValue?["files"]?.intValue
        let removed = try JSONValue.parse(Array(real.utf8)).objectValue?["clean"]?.objectValue?["files"]?.arrayValue ?? []
        let paths = removed.compactMap { $0.objectValue?["path"]?.stringValue }
        #expect(paths.contains { $0.hasPrefix("signatures/manifests/B-1.json.") }, "\(paths)")
        #expect(wouldFree == Int64(paths.count), "\(planned)\n\(real)")
    }

    @Test func anEmptyCatalogInsideTheSourceIsSkipped() throws {
        try dir.write("tree/a.txt", SampleContent.text(100))
        try dir.zinc(["create_catalog", "--id", "com.example.inner", "--dest", "tree/inner"])
        // Content that merely has an index.json is imported.
        try dir.write("tree/web/index.json", Array(#"{"title": "home"}"#.utf8))
        try dir.write("tree/web/config.json", Array("{}".utf8))
        let result = try ZincRunner(in: dir, silentStderr: false).succeeds([
            "update_bundle", "--catalog", "cat", "--name", "T", "--source", "tree",
        ])
        #expect(result.stderr.contains("skipping 'tree/inner': it is a Zinc catalog, not content"), "\(result.stderr)")
        let listing = try dir.zinc(["list_bundle", "--catalog", "cat", "--name", "T", "--version", "1"])
        #expect(listing.contains("web/index.json") && !listing.contains("inner/"), "\(listing)")
    }

    @Test func ctrlCDuringAnImportSaysNothingWasCommittedAndCleanRemovesItsFilesAfterTheGrace() throws {
        for i in 0..<400 { try dir.write("big/f\(i).bin", SampleContent.noise(200_000, seed: UInt64(100 + i))) }
        // Interrupted once some objects are stored, long before the commit.
        let objectsBefore = dir.files(under: "cat").filter { $0.hasPrefix("objects/") }.count
        let stderr = try zincInterrupted(
            ["update_bundle", "--catalog", "cat", "--name", "Big", "--source", "big", "--no-stat-cache", "--jobs", "1"], in: dir.path
        ) { dir.files(under: "cat").filter { $0.hasPrefix("objects/") }.count >= objectsBefore + 20 }
        #expect(stderr.contains("zinc: interrupted: no version of 'Big' was committed"), "\(stderr)")
        #expect(
            stderr.contains("this import wrote are recorded as never listed; 'zinc clean --force --catalog cat' removes them"), "\(stderr)")
        #expect(try !dir.zinc(["list", "--catalog", "cat"]).contains("Big"))

        let report = try dir.zinc(["clean", "--catalog", "cat"])
        #expect(report.contains("that no index ever listed, written by an import interrupted at "), "\(report)")
        #expect(!report.contains("left the index"), "\(report)")
        try dir.zinc(["clean", "--catalog", "cat", "--force", "--grace", "0"])
        #expect(dir.files(under: "cat").filter { $0.hasPrefix("objects/") }.count == objectsBefore)
        try dir.zinc(["verify", "--catalog", "cat"])
    }
}
