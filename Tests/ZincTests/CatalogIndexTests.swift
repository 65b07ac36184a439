import Testing
import Zinc

@Suite struct CatalogIndexTests {
    func parse(_ text: String) throws -> CatalogIndex {
        try CatalogIndex.parse(Array(text.utf8), path: "catalog.json")
    }

    @Test func writesTheFormatExactly() {
        var index = CatalogIndex(id: "com.mindsnacks.french")
        index.bundles["BasicAdjectives"] = .init(versions: [1, 2], distributions: ["master": 2, "_master": 1, "test": 2], nextVersion: 2)
        #expect(
            String(decoding: index.encoded(), as: UTF8.self) == """
                {"bundles":{"BasicAdjectives":{"distributions":{"_master":1,"master":2,"test":2},"next_version":2,"versions":[1,2]}},"format":"1","id":"com.mindsnacks.french"}
                """)
    }

    @Test func readsAnyKeyOrderAndWhitespace() throws {
        let index = try parse(
            """
            { "format" : "1",
              "bundles": { "B": { "next_version": 5, "versions": [ 3, 1 ], "distributions": { "master": 3 } } },
              "id": "x.y" }
            """)
        #expect(index.id == "x.y")
        #expect(index.bundles["B"] == .init(versions: [1, 3], distributions: ["master": 3], nextVersion: 5))
    }

    @Test func nextVersionDefaultsToTheHighestVersion() throws {
        #expect(
            try parse(#"{"id":"a","format":"1","bundles":{"B":{"versions":[1,4],"distributions":{}}}}"#)
                .bundles["B"]?.nextVersion == 4)
    }

    @Test func acceptsTheMisspelledKeyAndDropsItOnRewrite() throws {
        let index = try parse(#"{"id":"a","format":"1","bundles":{"B":{"versions":[1],"distributions":{},"next-version":7}}}"#)
        #expect(index.bundles["B"]?.nextVersion == 7)
        let rewritten = String(decoding: index.encoded(), as: UTF8.self)
        #expect(rewritten.contains(#""next_version":7"#))
        #expect(!rewritten.contains("next-version"))
    }

    @Test func readsTheTalksDraftLayout() throws {
        let index = try parse(
            """
            {"id": "com.mindsnacks.french", "format": "1",
             "distributions": {"master": {"BasicAdjectives": 1}, "test": {"BasicAdjectives": 2}},
             "bundles": {"BasicAdjectives": [1, 2]}}
            """)
        #expect(index.bundles["BasicAdjectives"] == .init(versions: [1, 2], distributions: ["master": 1, "test": 2], nextVersion: 2))
    }

    @Test func refusesOtherFormats() {
        #expect(throws: ZincError.unsupportedFormat(path: "catalog.json", format: "2")) {
            try parse(#"{"id":"a","format":"2","bundles":{}}"#)
        }
    }

    @Test func refusesForeignOrCorruptJSON() {
        #expect(throws: ZincError.corruptFile(path: "catalog.json", reason: "no 'format' key: not a Zinc catalog index")) {
            try parse(#"{"name":"some-npm-package","version":"1.0.0"}"#)
        }
        #expect(throws: ZincError.self) { try parse("{\"id\": ") }
        #expect(throws: ZincError.self) { try parse(#"{"id":"a","format":"1","bundles":{"B":{"versions":[0]}}}"#) }
        #expect(throws: ZincError.self) { try parse("[1, 2]") }
    }

    /// The index is written straight from its bundles; the bytes are those of its JSON
    /// tree, names needing escapes included.
    @Test func encodesExactlyAsItsJSONTree() {
        var index = CatalogIndex(id: "com.example.app")
        index.bundles["B"] = .init(versions: [1, 2, 10], distributions: ["master": 10, "_master": 2, "Z": 1], nextVersion: 12)
        index.bundles["a\"quote é"] = .init(versions: [], distributions: [:], nextVersion: 4)
        index.bundles["Ä"] = .init(versions: [3], distributions: ["tést": 3], nextVersion: 3)
        #expect(index.encoded() == index.json().encoded())
        #expect(CatalogIndex(id: "x").encoded() == Array(#"{"bundles":{},"format":"1","id":"x"}"#.utf8))
    }

    /// FORMAT.md: a bundle whose versions are all deleted keeps its `next_version`.
    @Test func keepsBundlesWithoutVersions() throws {
        var index = CatalogIndex(id: "a")
        index.bundles["Gone"] = .init(versions: [], distributions: [:], nextVersion: 3)
        let json = #"{"bundles":{"Gone":{"distributions":{},"next_version":3,"versions":[]}},"format":"1","id":"a"}"#
        #expect(String(decoding: index.encoded(), as: UTF8.self) == json)
        #expect(try parse(json) == index)
    }
}
