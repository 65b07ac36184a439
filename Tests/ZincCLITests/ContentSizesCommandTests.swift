import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// The content sizes of gzipped objects (`sizes/B-V.json.gz`) through the built binary:
/// imports write them, `list_bundle --sizes` and `list --sizes` show them, versions
/// imported before them get them from `add_content_sizes`, `verify` checks them, `publish`
/// copies them and `clean` removes them with their version.
@Suite struct ContentSizesCommandTests {
    let dir: TemporaryDirectory

    /// B 1: a.bin (2,000 B, stored raw) and text.js (5,000 B of text, stored gzipped),
    /// master on it; B 2: text.js of 6,000 B.
    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/a.bin", SampleContent.noise(2000, seed: 1))
        try dir.write("src/text.js", SampleContent.text(5000, word: "lesson"))
        try makeCatalogWithMaster(in: dir, bundle: "B")
        try dir.write("src/text.js", SampleContent.text(6000, word: "lesson"))
        try zinc("update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    var catalog: String { dir.at("cat") }

    /// The stored size of text.js in version `version`.
    func storedText(_ version: Int) throws -> Int64 {
        let json = try JSONValue.parse(
            Array(try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "\(version)", "--json").utf8))
        let file = json.objectValue?["files"]?.arrayValue?.first { $0.objectValue?["path"] == .string("text.js") }
        return try #require(file?.objectValue?["stored_size"]?.intValue)
    }

    /// Rows as `TextTable` prints them: two spaces apart, the `left` columns left-aligned,
    /// nothing trailing.
    static func table(_ rows: [[String]], left: Set<Int>, indent: String = "") -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            var line =
                indent
                + row.indices.map { column in
                    let padding = String(repeating: " ", count: widths[column] - row[column].count)
                    return left.contains(column) ? row[column] + padding : padding + row[column]
                }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    func listBundleLines(_ stored: Int64) -> [String] {
        Self.table(
            [
                ["size", "stored", "format", "path"], ["2.00 kB", "2.00 kB", "raw", "a.bin"],
                ["5.00 kB", HumanFormat.bytes(stored), "gz", "text.js"],
            ], left: [2, 3]) + ["2 files, 7.00 kB, \(HumanFormat.bytes(2000 + stored)) stored"]
    }

    @Test func listBundleAndListShowEveryContentSize() throws {
        let stored1 = try storedText(1), stored2 = try storedText(2)
        let listing = try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--sizes")
        #expect(listing.split(separator: "\n").map(String.init) == listBundleLines(stored1))
        let json = try JSONValue.parse(Array(try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--json").utf8))
        #expect(
            json.objectValue?["totals"]
                == .object(["files": .int(2), "size": .int(7000), "unsized_files": .int(0), "stored_size": .int(2000 + stored1)]))
        let sizes = try JSONValue.parse(Array(try zinc("list", "--catalog", "cat", "--sizes", "--json").utf8))
        let update = try #require(
            sizes.objectValue?["bundles"]?.arrayValue?.first?.objectValue?["versions"]?.arrayValue?.last?.objectValue?["update"]?
                .objectValue?["bytes"]?.intValue)
        let expected =
            ["archives: kept for the versions a distribution names (config/archives.json)", "B"]
            + Self.table(
                [
                    ["version", "files", "size", "stored", "update", "distributions"],
                    ["1", "2", "7.00 kB", HumanFormat.bytes(2000 + stored1), "—", "master"],
                    ["2", "2", "8.00 kB", HumanFormat.bytes(2000 + stored2), HumanFormat.bytes(update), ""],
                ], left: [5], indent: "  ")
        #expect(try zinc("list", "--catalog", "cat", "--sizes").split(separator: "\n").map(String.init) == expected)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: catalog + "/sizes/B-1.json.gz")).count > 0
                && !FileManager.default.fileExists(atPath: catalog + "/sizes/B-0.json.gz"))
    }

    @Test func aVersionImportedBeforeSizesFilesGetsOneFromTheBackfill() throws {
        let stored1 = try storedText(1)
        let written = try Data(contentsOf: URL(fileURLWithPath: catalog + "/sizes/B-1.json.gz"))
        // As an older zinc left it.
        for version in [1, 2] { try FileManager.default.removeItem(atPath: catalog + "/sizes/B-\(version).json.gz") }
        let hint =
            "'—' and '+': content sizes of gzipped files not recorded (versions imported before sizes files); "
            + "'zinc add_content_sizes --catalog cat' records them"
        let before = try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--sizes")
        var lines = listBundleLines(stored1)
        lines[2] = lines[2].replacingOccurrences(of: "5.00 kB", with: "      —")
        lines[3] = "2 files, 2.00 kB+, \(HumanFormat.bytes(2000 + stored1)) stored"
        #expect(before.split(separator: "\n").map(String.init) == lines + [hint])
        // Said once, however many versions lack their file.
        #expect(try zinc("list", "--catalog", "cat", "--sizes").hasSuffix("\n" + hint + "\n"))
        #expect(try zinc("list", "--catalog", "cat", "--sizes").components(separatedBy: hint).count == 2)

        #expect(
            try zinc("add_content_sizes", "--catalog", "cat") == """
                wrote sizes/B-1.json.gz
                wrote sizes/B-2.json.gz
                Added sizes files to 2 versions (2 gzipped objects, \(HumanFormat.bytes(stored1 + (try storedText(2)))) read)

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog + "/sizes/B-1.json.gz")) == written)
        #expect(
            try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--sizes").split(separator: "\n").map(
                String.init) == listBundleLines(stored1))
        let again = try JSONValue.parse(Array(try zinc("add_content_sizes", "--catalog", "cat", "--json").utf8))
        #expect(again == .object(["written": .array([]), "measured_objects": .int(0), "bytes_read": .int(0)]))
    }

    @Test func verifyCatchesAWrongSizeAndAnObjectNotTheVersions() throws {
        try zinc("verify", "--catalog", "cat", "--quiet")
        let digest = sha1Hex(SampleContent.text(5000, word: "lesson"))
        let other = sha1Hex(SampleContent.noise(2000, seed: 1))
        let path = catalog + "/sizes/B-1.json.gz"
        try FileManager.default.removeItem(atPath: path)
        try Data(GzipCompressor.compress(Array(#"{"format":1,"sizes":{"\#(other)":2000,"\#(digest)":4999}}"#.utf8)))
            .write(to: URL(fileURLWithPath: path))
        let result = try zinc.run(["verify", "--catalog", "cat", "--quiet"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("sizes/B-1.json.gz: lists \(other), which the version stores raw (its manifest gives its size)\n"))
        #expect(result.stdout.contains("sizes/B-1.json.gz: gives \(digest) a content size of 4999 bytes; its content is 5000\n"))
        // Version 2's file names an object it does not have, and not its own gzipped one.
        let foreign = String(repeating: "0", count: 40)
        let text2 = sha1Hex(SampleContent.text(6000, word: "lesson"))
        try FileManager.default.removeItem(atPath: catalog + "/sizes/B-2.json.gz")
        try Data(GzipCompressor.compress(Array(#"{"format":1,"sizes":{"\#(foreign)":5}}"#.utf8)))
            .write(to: URL(fileURLWithPath: catalog + "/sizes/B-2.json.gz"))
        let second = try zinc.run(["verify", "--catalog", "cat", "--bundle", "B", "--version", "2", "--quiet"])
        #expect(second.status == 2)
        #expect(second.stdout.contains("sizes/B-2.json.gz: lists \(foreign), which the version does not have\n"), "\(second.stdout)")
        #expect(second.stdout.contains("sizes/B-2.json.gz: lacks the content size of \(text2), which the version stores gzipped\n"))
        #expect(!second.stdout.contains("sizes/B-1.json.gz"), "only the version's own file is checked")
    }

    @Test func publishCopiesItAndCleanRemovesItWithItsVersion() throws {
        try zinc("publish", "--catalog", "cat", "--to", "live", "--quiet")
        for version in [1, 2] {
            let name = "/sizes/B-\(version).json.gz"
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: dir.at("live") + name)) == Data(contentsOf: URL(fileURLWithPath: catalog + name)))
        }
        try zinc("delete_bundle", "--catalog", "cat", "--bundle", "B", "--versions", "2")
        let cleaned = try zinc("clean", "--catalog", "cat", "--force", "--grace", "0", "--json")
        let removed = try JSONValue.parse(Array(cleaned.utf8)).objectValue?["files"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(removed?.contains("sizes/B-2.json.gz") == true, "\(cleaned)")
        #expect(!FileManager.default.fileExists(atPath: catalog + "/sizes/B-2.json.gz"))
        #expect(FileManager.default.fileExists(atPath: catalog + "/sizes/B-1.json.gz"))
    }
}
