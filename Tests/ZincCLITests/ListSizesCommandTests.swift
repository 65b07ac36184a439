import Testing
import ZincTestSupport

@testable import Zinc

/// `list --sizes`, `list --all` and `list_bundle --sizes` through the built binary: each
/// version's files, sizes and update cost, deleted bundles, each file's sizes.
@Suite struct ListSizesCommandTests {
    let dir: TemporaryDirectory

    /// B 1: a.bin (1,000 B), b.bin (3,000 B), both stored raw; B 2: a.bin of 2,000 B;
    /// master at 1. G had a version, deleted.
    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/a.bin", SampleContent.noise(1000, seed: 1))
        try dir.write("src/b.bin", SampleContent.noise(3000, seed: 2))
        try zinc("create_catalog", "--id", "c", "--dest", "cat")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        try dir.write("src/a.bin", SampleContent.noise(2000, seed: 3))
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1")
        try zinc("update_bundle", "--catalog", "cat", "--name", "G", "--source", "src")
        try zinc("delete_bundle", "--catalog", "cat", "--name", "G", "--versions", "all")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    @Test func aBundleWithNoVersionsLeftShowsOnlyWhenAskedAsDeleted() throws {
        #expect(try zinc("list", "--catalog", "cat") == "B [1=(master), 2]\n")
        #expect(try zinc("list", "--catalog", "cat", "--all") == "B [1=(master), 2]\nG (deleted)\n")
        #expect(try zinc("list", "--catalog", "cat", "--all", "--no-versions") == "B\nG\n")
        let json = try JSONValue.parse(Array(try zinc("list", "--catalog", "cat", "--all", "--json").utf8))
        #expect(
            json.objectValue?["bundles"]?.arrayValue?.last
                == .object(["name": .string("G"), "deleted": .bool(true), "versions": .array([])]))
        let hidden = try JSONValue.parse(Array(try zinc("list", "--catalog", "cat", "--json").utf8))
        #expect(hidden.objectValue?["bundles"]?.arrayValue?.count == 1)
    }

    @Test func sizesShowEachVersionsFilesSizeAndUpdateCost() throws {
        // Updating 1 to 2 fetches the new a.bin alone: one request for its 2,000 bytes.
        #expect(
            try zinc("list", "--catalog", "cat", "--sizes") == """
                archives: kept for the versions a distribution names (config/archives.json)
                B
                  version  files     size   stored   update  distributions
                        1      2  4.00 kB  4.00 kB        —  master
                        2      2  5.00 kB  5.00 kB  2.00 kB

                """)
        let json = try JSONValue.parse(Array(try zinc("list", "--catalog", "cat", "--sizes", "--json").utf8))
        let versions = try #require(json.objectValue?["bundles"]?.arrayValue?.first?.objectValue?["versions"]?.arrayValue)
        #expect(
            versions.last
                == .object([
                    "version": .int(2), "distributions": .array([]), "files": .int(2), "size": .int(5000),
                    "unsized_files": .int(0), "stored_size": .int(5000),
                    "update": .object([
                        "from": .int(1), "requests": .int(1), "bytes": .int(2000), "strategy": .string("objects"),
                    ]),
                ]))
        #expect(versions.first?.objectValue?["update"] == .null)
        // With --distro, the one version, still priced from the version before it.
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "2")
        #expect(
            try zinc("list", "--catalog", "cat", "--sizes", "--distro", "test") == """
                archives: kept for the versions a distribution names (config/archives.json)
                B
                  version  files     size   stored   update  distributions
                        2      2  5.00 kB  5.00 kB  2.00 kB  test

                """)
    }

    @Test func listBundleShowsEachFilesSizes() throws {
        try dir.write("src/text.js", SampleContent.text(5000, word: "lesson"))
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        let output = try zinc("list_bundle", "--catalog", "cat", "--name", "B", "--version", "3", "--sizes")
        let lines = output.split(separator: "\n").map(String.init)
        // The text is stored gzipped: its content size is in the version's sizes file.
        let json = try JSONValue.parse(Array(try zinc("list_bundle", "--catalog", "cat", "--name", "B", "--version", "3", "--json").utf8))
        let files = try #require(json.objectValue?["files"]?.arrayValue)
        let text = try #require(files.last?.objectValue)
        let stored = try #require(text["stored_size"]?.intValue)
        #expect(text["path"] == .string("text.js") && text["format"] == .string("gz") && text["size"] == .int(5000))
        #expect(
            files.first
                == .object([
                    "path": .string("a.bin"), "sha": .string(sha1Hex(SampleContent.noise(2000, seed: 3))), "format": .string("raw"),
                    "stored_size": .int(2000), "size": .int(2000),
                ]))
        #expect(
            json.objectValue?["totals"]
                == .object(["files": .int(3), "size": .int(10000), "unsized_files": .int(0), "stored_size": .int(5000 + stored)]))
        let storedText = HumanFormat.bytes(stored)
        let width = max(7, storedText.count)
        func pad(_ text: String) -> String { String(repeating: " ", count: width - text.count) + text }
        #expect(
            lines == [
                "   size  \(pad("stored"))  format  path",
                "2.00 kB  \(pad("2.00 kB"))  raw     a.bin",
                "3.00 kB  \(pad("3.00 kB"))  raw     b.bin",
                "5.00 kB  \(pad(storedText))  gz      text.js",
                "3 files, 10.0 kB, \(HumanFormat.bytes(5000 + stored)) stored",
            ])
        // Without --sizes, paths alone as before.
        #expect(try zinc("list_bundle", "--catalog", "cat", "--name", "B", "--version", "3") == "a.bin\nb.bin\ntext.js\n")
    }
}
