import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `update_bundle`'s figures for a release engineer: what a new version adds to storage
/// and what a player on the version before downloads, after the import and before it
/// (`--dry-run`), checked against the files the import wrote and `list --sizes`.
@Suite struct VersionGrowthReportTests {
    let dir: TemporaryDirectory
    /// A large file (chunked: over `ContentChunker.threshold`) and a small one, both
    /// incompressible, so that every object is stored raw and its bytes are known.
    static let large = 3_000_000
    static let small = 1200

    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/big.bin", SampleContent.noise(Self.large, seed: 1))
        try dir.write("src/small.bin", SampleContent.noise(1000, seed: 2))
        try dir.write("src/readme.txt", SampleContent.text(3000))
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
        // Version 2: one byte flipped in the large file, the small one rewritten.
        var big = SampleContent.noise(Self.large, seed: 1)
        big[1_500_000] ^= 0xFF
        try dir.write("src/big.bin", big)
        try dir.write("src/small.bin", SampleContent.noise(Self.small, seed: 3))
    }

    private func json(_ arguments: [String]) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(Array(dir.zinc(arguments).utf8)).objectValue)
    }

    private func size(_ path: String) throws -> Int64 {
        try #require(try FileManager.default.attributesOfItem(atPath: dir.at(path))[.size] as? Int64)
    }

    /// The storage figures of version 2 as its files are on disk, `archives` its archives.
    private func storedFigures(archives: [String]) throws -> JSONValue {
        let manifest = try size("cat/manifests/B-2.json") + size("cat/manifests/B-2.json.gz")
        // The records: the LMFO record, the content size of the gzipped readme, and where
        // the manifest's chunks are.
        let chunkList = try size("cat/chunks/B-2.json.gz")
        let record = try size("cat/lmfo/B-2.json") + size("cat/sizes/B-2.json.gz") + size("cat/manifest-chunks/B-2.json.gz")
        let archiveBytes = try archives.reduce(Int64(0)) { try $0 + size("cat/" + $1) }
        let objects = Int64(Self.large + Self.small)
        return .object([
            "objects": .int(2), "object_bytes": .int(objects), "manifest_bytes": .int(manifest),
            "chunk_list_bytes": .int(chunkList), "record_bytes": .int(record), "archive_bytes": .int(archiveBytes),
            "total_bytes": .int(objects + manifest + chunkList + record + archiveBytes),
        ])
    }

    @Test func importAndDryRunSayWhatTheVersionAddsAndWhatAPlayerDownloads() throws {
        let preview = try json(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--dry-run", "--json"])
        let report = try json(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--json"])
        #expect(report["version"] == .int(2))
        // Exactly the files written: two raw objects, the manifest, the chunk list, the
        // LMFO record, and no archive (no distribution names version 2).
        let stored = try storedFigures(archives: [])
        #expect(report["storage"] == stored)
        #expect(!dir.exists("cat/archives/B-2.tar"))
        // A player on version 1 fetches the small object and one chunk range of the large
        // one, two requests, as `list --sizes` prices the update.
        let listed = try json(["list", "--catalog", "cat", "--sizes", "--json"])
        let versions = try #require(listed["bundles"]?.arrayValue?.first?.objectValue?["versions"]?.arrayValue)
        let update = try #require(versions.last?.objectValue?["update"])
        #expect(report["update"] == update)
        let downloaded = try #require(update.objectValue?["bytes"]?.intValue)
        #expect(update.objectValue?["from"] == .int(1) && update.objectValue?["requests"] == .int(2))
        #expect(update.objectValue?["strategy"] == .string("objects"))
        #expect(downloaded > Int64(Self.small) && downloaded <= Int64(Self.small) + Int64(ContentChunker.maximumSize))
        // The preview's bounds are exact here: its contents are stored as they are.
        #expect(preview["storage"] == stored && preview["update"] == update)
        #expect(preview["new_objects"] == .int(2) && preview["new_object_bytes"] == .int(Int64(Self.large + Self.small)))
    }

    @Test func textGivesTheSameFigures() throws {
        let preview = try dir.zinc(
            ["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--dry-run"])
        let out = try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
        let figures = try #require(try storedFigures(archives: []).objectValue)
        func bytes(_ key: String) -> String { HumanFormat.bytes(figures[key]!.intValue!) }
        let listed = try json(["list", "--catalog", "cat", "--sizes", "--json"])
        let update = try #require(
            listed["bundles"]?.arrayValue?.first?.objectValue?["versions"]?.arrayValue?.last?.objectValue?["update"]?.objectValue)
        let download = HumanFormat.bytes(try #require(update["bytes"]?.intValue))
        let parts =
            "(2 new objects \(bytes("object_bytes"))%@, manifest \(bytes("manifest_bytes")), "
            + "chunk list \(bytes("chunk_list_bytes")), records \(bytes("record_bytes")), "
            + "no archive until a distribution names the version)"
        #expect(
            out == """
                Created bundle 'B' version 2
                Added to storage: \(bytes("total_bytes")) \(parts.replacingOccurrences(of: "%@", with: ""))
                A player on version 1 downloads \(download) in 2 requests (objects)

                """)
        #expect(
            preview == """
                M  big.bin
                M  small.bin
                Would create a new version of 'B' (against version 1): 3 files, 0 added, 2 changed, 0 removed; 2 new objects (\(bytes("object_bytes")) before compression)
                Would add to storage at most \(bytes("total_bytes")) \(parts.replacingOccurrences(of: "%@", with: " before compression"))
                A player on version 1 would download at most \(download) in 2 requests (objects)

                """)
    }

    @Test func archivesWrittenUnderThePolicyAreCounted() throws {
        try dir.zinc(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        let preview = try json(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--dry-run", "--json"])
        let report = try json(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--json"])
        let stored = try storedFigures(archives: ["archives/B-2.tar"])
        #expect(report["storage"] == stored && preview["storage"] == stored)
        #expect(stored.objectValue?["archive_bytes"] == report["archive_bytes"])
        // With the archive, a player's update is priced with it too, as `list --sizes` does.
        #expect(preview["update"] == report["update"])
    }

    @Test func firstAndUnchangedVersionsHaveNoUpdate() throws {
        let first = try json(["update_bundle", "--catalog", "cat", "--bundle", "New", "--source", "src", "--json"])
        #expect(first["version"] == .int(1) && first["update"] == .null && first["storage"]?.objectValue?["total_bytes"] != nil)
        let unchanged = try json(["update_bundle", "--catalog", "cat", "--bundle", "New", "--source", "src", "--json"])
        #expect(unchanged["storage"] == .null && unchanged["update"] == .null)
        let text = try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "New", "--source", "src"])
        #expect(text == "Bundle 'New' unchanged at version 1\n")
    }
}
