import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `update_bundle --dry-run` and `--json`: what a pipeline learns before and after an import.
@Suite struct UpdateBundleReportTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/keep.bin", SampleContent.noise(5000, seed: 1))
        try dir.write("src/edit.txt", SampleContent.text(4000, word: "old"))
        try dir.write("src/gone.txt", SampleContent.text(3000, word: "gone"))
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        // Archives of every version, as these tests look at unnamed versions' archives.
        try dir.zinc(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        try dir.write("src/edit.txt", SampleContent.text(4000, word: "new"))
        try FileManager.default.removeItem(atPath: dir.at("src/gone.txt"))
        try dir.write("src/added/one.bin", SampleContent.noise(1234, seed: 2))
    }

    private func json(_ arguments: [String]) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(Array(dir.zinc(arguments).utf8)).objectValue)
    }

    @Test func dryRunListsTheChangesAndWritesNothing() throws {
        let before = dir.files(under: "cat")
        let out = try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--dry-run"])
        #expect(
            out == """
                A  added/one.bin
                M  edit.txt
                D  gone.txt
                Would create a new version of 'B' (against version 1): 3 files, 1 added, 1 changed, 1 removed; 2 new objects (5.23 kB before compression) and its archive
                Would add to storage at most 19.6 kB (2 new objects 5.23 kB before compression, manifest 610 B, chunk list 0 B, records 398 B, archives 13.3 kB)
                A player on version 1 would download at most 6.66 kB in 1 request (lmfo)

                """, "\(out)")
        #expect(dir.files(under: "cat") == before)

        let report = try json(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--dry-run", "--json"])
        #expect(report["previous_version"] == .int(1) && report["unchanged"] == .bool(false) && report["files"] == .int(3))
        #expect(report["added"] == .array([.string("added/one.bin")]) && report["removed"] == .array([.string("gone.txt")]))
        #expect(report["changed"] == .array([.string("edit.txt")]))
        #expect(report["new_objects"] == .int(2) && report["new_object_bytes"] == .int(5234))
        #expect(dir.files(under: "cat") == before)
    }

    @Test func jsonSaysWhatWasWritten() throws {
        let report = try json(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--json"])
        #expect(report["bundle"] == .string("B") && report["version"] == .int(2) && report["unchanged"] == .bool(false))
        #expect(report["files"] == .int(3) && report["new_objects"] == .int(2))
        let archive = try #require(try? FileManager.default.attributesOfItem(atPath: dir.at("cat/archives/B-2.tar"))[.size] as? Int)
        #expect(report["archive_bytes"] == .int(Int64(archive)))
        let objects = try #require(report["object_bytes"]?.intValue), written = try #require(report["bytes_written"]?.intValue)
        #expect(objects > 0 && written > objects + Int64(archive))
        #expect((report["seconds"]?.doubleValue ?? -1) >= 0)

        let again = try json(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--json"])
        #expect(
            again["version"] == .int(2) && again["unchanged"] == .bool(true) && again["new_objects"] == .int(0)
                && again["bytes_written"] == .int(0))
        let unchanged = try dir.zinc(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--dry-run"])
        #expect(unchanged == "Bundle 'B' would stay unchanged at version 2\n")
    }
}
