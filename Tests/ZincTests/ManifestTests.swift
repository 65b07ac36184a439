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

    /// An object's sizes are held in 48 bits each, so that an object takes 32 bytes: every
    /// size a manifest may state reads back as given, an absent format as -1.
    @Test func storedSizesReadBackAsGivenInThirtyTwoBytes() {
        #expect(MemoryLayout<StoredObject>.stride == 32)
        let digest = SHA1.digest(Array("abc".utf8))
        let sizes: [Int64] = [
            0, 1, 789, Int64(UInt32.max), Int64(UInt32.max) + 1, 1 << 40, Manifest.maximumObjectSize,
            StoredObject.Sizes.range.upperBound,
        ]
        for size in sizes {
            for (gz, raw) in [(size, -1), (-1, size), (size, size / 3), (size / 7, size)] {
                let object = StoredObject(digest: digest, sizes: .init(gz: gz, raw: raw))
                #expect(object.sizes.gz == gz && object.sizes.raw == raw, "\(gz) \(raw)")
                #expect(object.preferredSize == (gz >= 0 ? gz : raw))
            }
        }
        #expect(Set([StoredObject.Sizes(gz: 5, raw: -1), .init(gz: 5, raw: -1), .init(gz: -1, raw: 5)]).count == 2)
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

    @Test(arguments: [
        ("", "it is empty"), ("/a", "it is absolute"), ("a//b", "it has an empty component"), ("a/", "it has an empty component"),
        ("./a", "it has a '.' component"), ("a/..", "it has a '..' component"), ("a/\u{7F}", "it contains a control character"),
        ("é/\u{85}x", "it contains a control character"),
        // A control character is named first, wherever it is.
        ("../a\u{1}", "it contains a control character"), ("a//\u{9F}", "it contains a control character"),
    ])
    func aRelativePathIsRefusedForItsFirstBrokenRule(_ path: String, _ reason: String) {
        #expect(throws: ZincError.invalidPath(path, reason: reason)) { try Names.validateRelativePath(path) }
    }

    @Test(arguments: ["a", "...", "a/..b/.c./é", "Ω/\u{A0}/\u{C2}"])
    func aRelativePathKeepingTheRulesPasses(_ path: String) throws {
        try Names.validateRelativePath(path)
    }

    @Test func aShaIsFortyLowercaseHexDigitsHoweverItIsSpelled() throws {
        let refused = ZincError.corruptFile(path: "m", reason: "file 'a' has no valid 'sha' (40 lowercase hex digits)")
        func parse(sha value: String) throws -> Manifest {
            try Manifest.parse(manifest(files: #""a":{"sha":\#(value),"formats":{"raw":{"size":1}}}"#), path: "m")
        }
        for bad in [
            #""\#(sha.uppercased())""#, #""\#(sha.dropLast())g""#, #""\#(sha.dropLast())/""#, #""\#(sha.dropLast())""#,
            #""\#(sha)0""#, #""""#, "12", "null", #"["\#(sha)"]"#, #"{"x":1}"#,
        ] {
            #expect(throws: refused) { try parse(sha: bad) }
        }
        // An escaped digit is the digit, as in any JSON string.
        #expect(try parse(sha: #""\u0032\#(sha.dropFirst())""#).files["a"]?.sha == sha)
        // Bytes that are not UTF-8 are refused as JSON, as in any string.
        var bytes = manifest(files: #""a":{"sha":"\#(sha.dropLast())X","formats":{"raw":{"size":1}}}"#)
        let bad = bytes.firstIndex(of: UInt8(ascii: "X"))!
        bytes[bad] = 0xC3
        #expect(throws: ZincError.corruptFile(path: "m", reason: "not JSON (invalid UTF-8 in a string at byte \(bad + 1))")) {
            try Manifest.parse(bytes, path: "m")
        }
        #expect(throws: ZincError.corruptFile(path: "m", reason: "not JSON (duplicate key 'sha' at byte 122)")) {
            try parse(sha: #""\#(sha)","sha":"\#(sha)""#)
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
