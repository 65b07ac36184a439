import Testing
import Zinc

@Suite struct ManifestTests {
    let sha = "2e75c8e57ab9ed44cd8f0f8666da5761ea280973"

    func manifest(files: String, extra: String = "") -> [UInt8] {
        Array(#"{"catalog":"c","bundle":"B","version":2,"flavors":[]\#(extra),"files":{\#(files)}}"#.utf8)
    }

    @Test func readsRawGzOrBothFormats() throws {
        let parsed = try Manifest.parse(
            manifest(
                files: """
                    "a.jpg":{"sha":"\(sha)","formats":{"raw":{"size":8640}}},
                    "b.caf":{"sha":"\(sha)","formats":{"gz":{"size":80},"raw":{"size":100}},"flavors":["phone"]}
                    """), path: "m.json")
        #expect(parsed.files["a.jpg"]?.object.formats == [.raw: 8640])
        #expect(parsed.files["b.caf"]?.object.formats == [.gz: 80, .raw: 100])
        #expect(parsed.files["b.caf"]?.object.preferredFormat == .gz)
        #expect(parsed.files["b.caf"]?.object.fileName == sha + ".gz")
        #expect(parsed.files["b.caf"]?.flavors == ["phone"])
    }

    @Test func writesKeysSortedAndOmitsFileFlavorsWithoutASpec() throws {
        let m = Manifest(
            catalog: "c", bundle: "B", version: 1,
            files: ["x/y.txt": .init(object: StoredObject(sha: sha, formats: [.gz: 5]))])
        #expect(
            String(decoding: m.encoded(), as: UTF8.self) == """
                {"bundle":"B","catalog":"c","files":{"x/y.txt":{"formats":{"gz":{"size":5}},"sha":"\(sha)"}},"flavors":[],"version":1}
                """)
        #expect(try Manifest.parse(m.encoded(), path: "m") == m)
    }

    @Test func theDirectEncoderWritesExactlyTheCanonicalJSON() {
        let m = Manifest(
            catalog: "c", bundle: "Bé", version: 7, flavors: ["phone", "tablet"],
            files: [
                "b/ü \"q\".png": .init(object: StoredObject(sha: sha, formats: [.gz: 5, .raw: 9]), flavors: ["tablet", "phone"]),
                "a.txt": .init(object: StoredObject(sha: sha, formats: [.raw: 0]), flavors: []),
                "Z/x": .init(object: StoredObject(sha: sha, formats: [.gz: 1]), flavors: ["phone"]),
            ])
        #expect(m.encoded() == m.json().encoded())
        let plain = Manifest(catalog: "c", bundle: "B", version: 1, files: ["x": .init(object: StoredObject(sha: sha, formats: [.raw: 3]))])
        #expect(plain.encoded() == plain.json().encoded())
    }

    @Test func aLargeManifestIsEncodedInPiecesThatJoinToTheCanonicalJSON() {
        var files = [String: Manifest.Entry]()
        for i in 0..<3000 { files["folder/file-\(i).bin"] = .init(object: StoredObject(sha: sha, formats: [.gz: Int64(i), .raw: 9999])) }
        let m = Manifest(catalog: "c", bundle: "B", version: 2, files: files)
        var pieces = [[UInt8]]()
        m.encode { pieces.append($0) }
        #expect(pieces.count > 2)
        #expect(pieces.allSatisfy { $0.count < 70_000 })
        #expect(Array(pieces.joined()) == m.json().encoded())
    }

    @Test(arguments: ["../evil", "a/../../evil", "/etc/passwd", "a//b", "./a", "a/.", "tab\there", ""])
    func refusesUnsafePaths(_ path: String) {
        let escaped = path.replacingOccurrences(of: "\t", with: "\\t")
        #expect(throws: ZincError.self) {
            try Manifest.parse(manifest(files: #""\#(escaped)":{"sha":"\#(sha)","formats":{"raw":{"size":1}}}"#), path: "m")
        }
    }

    @Test func refusesUnknownKeysAndBadValues() {
        let good = #""a":{"sha":"\#(sha)","formats":{"raw":{"size":1}}}"#
        #expect(throws: ZincError.corruptFile(path: "m", reason: "unknown key 'extra'")) {
            try Manifest.parse(manifest(files: good, extra: #","extra":1"#), path: "m")
        }
        #expect(throws: ZincError.corruptFile(path: "m", reason: "file 'a' has unknown key 'mtime'")) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha)","formats":{"raw":{"size":1}},"mtime":3}"#), path: "m")
        }
        #expect(throws: ZincError.self) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha.uppercased())","formats":{"raw":{"size":1}}}"#), path: "m")
        }
        #expect(throws: ZincError.self) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha)","formats":{"bz2":{"size":1}}}"#), path: "m")
        }
        #expect(throws: ZincError.corruptFile(path: "m", reason: "file 'a' has no 'formats'")) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha)","formats":{}}"#), path: "m")
        }
        #expect(throws: ZincError.corruptFile(path: "m", reason: "file 'a' format 'gz' has no 'size' from 0 to 1099511627776")) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha)","formats":{"gz":{"size":-1}}}"#), path: "m")
        }
        #expect(throws: ZincError.self) {
            try Manifest.parse(manifest(files: #""a":{"sha":"\#(sha)","formats":{"raw":{"size":1},"raw":{"size":2}}}"#), path: "m")
        }
        #expect(throws: ZincError.unsupportedFormat(path: "m", format: "2")) {
            try Manifest.parse(manifest(files: good, extra: #","format":"2""#), path: "m")
        }
    }
}
