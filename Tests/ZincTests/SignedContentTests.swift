import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The signed content of a version read from its digest list file a line per row asked
/// for: the right line for each row, and a list of another size or SHA-256 than the
/// version signature's, or one giving an object two SHA-256s, refused by name.
@Suite struct SignedContentTests {
    static let digests = (0..<2500).map { SHA256.digest(Array("content \($0)".utf8)) }
    static let objects = (0..<2500).map { SHA1.Digest(hex: String(format: "%040x", $0 + 1))! }

    /// `list` in a file of `dir`, and a version signature of `files` files covering `covered`.
    static func open(_ list: [UInt8], in dir: TemporaryDirectory, files: Int? = nil, covered: [UInt8]? = nil) throws
        -> (PosixFile, VersionSignature)
    {
        try dir.write("B-1.digests", list)
        let signature = VersionSignature(
            catalog: "com.example.app", bundle: "B", version: 1, manifestSHA256: SHA256.digest([1]),
            files: files ?? digests.count, digestsSHA256: SHA256.digest(covered ?? list))
        return (try PosixFile.open(dir.at("B-1.digests")), signature)
    }

    @Test func eachRowGetsItsOwnLine() throws {
        let dir = try TemporaryDirectory()
        let (file, signature) = try Self.open(DigestList(digests: Self.digests).encoded(), in: dir)
        let content = try SignedContent(list: file, path: "digests/B-1.txt.gz", signature: signature)
        // Rows out of order and far apart, across the reader's windows of lines.
        let rows = [2499, 3, 1500, 0, 1007, 1008].map { (ordinal: $0, digest: Self.objects[$0]) }
        #expect(
            try content.contentDigests(for: rows) == Dictionary(uniqueKeysWithValues: rows.map { ($0.digest, Self.digests[$0.ordinal]) }))
        let all = Self.objects.enumerated().map { (ordinal: $0.offset, digest: $0.element) }
        #expect(try content.contentDigests(for: all) == Dictionary(uniqueKeysWithValues: zip(Self.objects, Self.digests)))
        #expect(try content.contentDigests(for: []) == [:])
    }

    /// A row's ordinal is its file's index among the manifest's paths in UTF-8 byte order
    /// ("Z" < "z" < "é", where a `String`'s `<` puts "é" before "z"), the list's order.
    @Test func aRowsOrdinalIsItsPathsPlaceInByteOrder() throws {
        let dir = try TemporaryDirectory()
        let manifest = try DigestListTests.manifest()
        let one = try #require(manifest.files["\u{E9}.txt"]).object.digest
        let two = try #require(manifest.files["z.txt"]).object.digest
        let objects = [one: DigestListTests.a, two: DigestListTests.b]
        let (file, signature) = try Self.open(DigestList(objects: objects, of: manifest).encoded(), in: dir, files: 3)
        let content = try SignedContent(list: file, path: "l", signature: signature)
        let paths = DigestList.paths(of: manifest)
        #expect(paths == ["Z.txt", "z.txt", "\u{E9}.txt"])
        let rows = paths.enumerated().map { (ordinal: $0.offset, digest: manifest.files[$0.element]!.object.digest) }
        #expect(try content.contentDigests(for: rows) == objects)
    }

    @Test func twoRowsOfOneObjectMustAgree() throws {
        let dir = try TemporaryDirectory()
        var digests = Self.digests
        digests[7] = digests[5]
        let (file, signature) = try Self.open(DigestList(digests: digests).encoded(), in: dir)
        let content = try SignedContent(list: file, path: "digests/B-1.txt.gz", signature: signature)
        let same = Self.objects[5]
        #expect(try content.contentDigests(for: [(ordinal: 5, digest: same), (ordinal: 7, digest: same)]) == [same: digests[5]])
        #expect {
            try content.contentDigests(for: [(ordinal: 5, digest: same), (ordinal: 6, digest: same)])
        } throws: { error in
            "\(error)".contains("digests/B-1.txt.gz") && "\(error)".contains("gives object \(same) two SHA-256s (at line 8")
        }
        #expect {
            try content.contentDigests(for: [(ordinal: 2500, digest: same)])
        } throws: { error in
            "\(error)".contains("digests/B-1.txt.gz") && "\(error)".contains("has 2500 lines, none for the file at 2500")
        }
    }

    @Test(arguments: [
        ("size", "it has 162515 bytes, but the 2499 files the version signature counts make 162450"),
        ("hash", "but the version signature covers"),
        ("header", "does not start with 'zinc-digests 1'"),
    ])
    func aListOtherThanTheSignedOneIsRefused(_ lie: String, _ reason: String) throws {
        let dir = try TemporaryDirectory()
        let list = DigestList(digests: Self.digests).encoded()
        let (file, signature) =
            switch lie {
            case "size": try Self.open(list, in: dir, files: Self.digests.count - 1)
            case "hash": try Self.open(list, in: dir, covered: list + [0])
            default: try Self.open(Array("zinc-digests 2\n".utf8) + list.dropFirst(15), in: dir)
            }
        #expect {
            try SignedContent(list: file, path: "digests/B-1.txt.gz", signature: signature)
        } throws: { error in
            "\(error)".contains("digests/B-1.txt.gz") && "\(error)".contains(reason)
        }
    }

    /// A catalog signed before version signatures: the manifest signature's table.
    @Test func aManifestSignaturesObjectsAnswerByObject() throws {
        let content = SignedContent(objects: [Self.objects[0]: Self.digests[0]], path: "B-1.json.K.sig")
        #expect(try content.contentDigests(for: [(ordinal: 9, digest: Self.objects[0])]) == [Self.objects[0]: Self.digests[0]])
        #expect {
            try content.contentDigests(for: [(ordinal: 0, digest: Self.objects[1])])
        } throws: { error in
            "\(error)".contains("B-1.json.K.sig") && "\(error)".contains("gives no SHA-256 for object \(Self.objects[1])")
        }
    }
}
