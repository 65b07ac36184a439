import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `manifest-chunks/B-V.json.gz`: what an import writes of its manifest, what rebuilds
/// it, and what a reader refuses.
@Suite struct ManifestChunksTests {
    static let sha = String(repeating: "ab", count: 32)

    /// A description of version 1 of B with `fields` replacing its own.
    static func description(_ fields: [String: String] = [:]) -> String {
        var all = [
            "chunking": #""fastcdc-gear64-4k-16k-64k""#, "chunks": #"[[5000,1000,"0000000000000001"],[3000,800,"0000000000000002"]]"#,
            "file": #""manifests/B-1.json.gz""#, "format": "1", "history": "32768", "offset": "10", "sha256": "\"\(sha)\"",
            "size": "8000",
        ]
        for (key, value) in fields { all[key] = value }
        return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    @Test func anImportDescribesItsManifestsChunksAndTheyRebuildIt() throws {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.m", in: FileStorage(root: dir.at("cat")))
        for i in 0..<2000 { try dir.write("src/f\(i).txt", "file \(i)") }
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 1))
        let description = try #require(try catalog.readManifestChunks(bundle: "B", version: 1))
        let plain = try dir.read("cat/manifests/B-1.json")
        let stored = try dir.read("cat/manifests/B-1.json.gz")
        #expect(description.file == "manifests/B-1.json.gz" && description.size == Int64(plain.count))
        #expect(description.sha256 == SHA256.digest(plain) && description.fits(storedSize: Int64(stored.count)))
        #expect(description.layout.chunks.count > 4 && description.layout.chunks.allSatisfy { $0.length <= 64 << 10 })
        #expect(try GzipDecompressor.decompress(stored) == plain, "one ordinary gzip member")
        #expect(stored.count <= GzipCompressor.compress(plain).count * 102 / 100, "flush points cost little")
        let rebuilt = try description.rebuild(held: { _ in nil }) { _, range in Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        #expect(rebuilt == plain)
        #expect(try ManifestChunks.parse(description.encoded(), path: "d", bundle: "B", version: 1) == description)
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    /// The existing scheme cuts as it did; the catalog documents' scheme cuts smaller.
    @Test func theSchemesShareTheRuleAndDifferInSize() {
        let bytes = SampleContent.noise(1 << 20, seed: 5)
        func lengths(_ scheme: ChunkingScheme) -> [Int] {
            var splitter = ChunkSplitter(scheme)
            bytes.withUnsafeBytes { splitter.update($0) }
            return splitter.finish().map(\.length)
        }
        #expect(
            lengths(.objects)
                == {
                    var s = ChunkSplitter(); bytes.withUnsafeBytes { s.update($0) }; return s.finish().map(\.length)
                }())
        #expect(ContentChunker.scheme == "fastcdc-gear64-16k-64k-256k")
        let small = lengths(.catalogDocuments)
        #expect(small.dropLast().allSatisfy { $0 >= 4 << 10 && $0 <= 64 << 10 })
        #expect(small.count > 3 * lengths(.objects).count)
    }

    static let hostile: [(String, String)] = [
        ("[]", "not a JSON object"),
        (description(["format": "2"]), "not a manifest chunk description of format 1"),
        (description(["chunking": #""fastcdc-gear64-16k-64k-256k""#]), "not cut by"),
        (description(["file": #""manifests/B-2.json.gz""#]), "'file' is not"),
        (description(["file": #""../B-1.json.gz""#]), "'file' is not"),
        (description(["offset": "0"]), "past the gzip header"),
        (description(["history": "0"]), "past the gzip header"),
        (description(["sha256": #""ABAB""#]), "not a SHA-256"),
        (description(["size": #""8000""#]), "lacks its chunks or size"),
        (description(["chunks": #"[[0,1,"0000000000000001"]]"#]), "within deflate's bounds"),
        (description(["chunks": #"[[2000,1,"0000000000000001"]]"#, "size": "2000"]), "within deflate's bounds"),
        (description(["chunks": #"[[5000,1000,"000000000000000Z"]]"#]), "within deflate's bounds"),
        (description(["chunks": #"[[70000,1000,"0000000000000001"]]"#, "size": "70000"]), "longer than"),
        (description(["chunks": "[]", "size": "0"]), "are none"),
        (description(["size": "8001"]), "not its size 8001"),
    ]

    @Test(arguments: hostile) func aHostileDescriptionIsRefusedByName(_ json: String, _ reason: String) {
        #expect {
            _ = try ManifestChunks.parse(Array(json.utf8), path: "manifest-chunks/B-1.json.gz", bundle: "B", version: 1)
        } throws: { error in
            "\(error)".contains(reason) && "\(error)".contains("manifest-chunks/B-1.json.gz")
        }
    }

    @Test func itsCopysNameIsAccepted() throws {
        let copy = Self.description(["file": #""manifest-chunks/B-1.manifest.json.gz""#])
        #expect(
            try ManifestChunks.parse(Array(copy.utf8), path: "d", bundle: "B", version: 1).file == "manifest-chunks/B-1.manifest.json.gz")
    }

    @Test func chunksThatDoNotMakeTheManifestAreRefused() throws {
        let plain = Array(String(repeating: #"{"a":"b"}"#, count: 5000).utf8)
        var stored = [UInt8]()
        let deflater = try ChunkDeflater(ManifestChunks.scheme) { stored.append(contentsOf: $0) }
        try plain.withUnsafeBytes { try deflater.update($0) }
        try deflater.finish()
        let good = try #require(ManifestChunks(file: "manifests/B-1.json.gz", chunks: deflater.chunks, sha256: SHA256.digest(plain)))
        let wrongSHA = try #require(ManifestChunks(file: good.file, chunks: deflater.chunks, sha256: SHA256.digest([1])))
        func slice(_ range: Range<Int64>) -> [UInt8] { Array(stored[Int(range.lowerBound)..<Int(range.upperBound)]) }
        #expect(try good.rebuild(held: { _ in nil }) { slice($1) } == plain)
        #expect(throws: ManifestChunks.Mismatch.self) { try wrongSHA.rebuild(held: { _ in nil }) { slice($1) } }
        #expect(throws: ManifestChunks.Mismatch.self) {
            try good.rebuild(held: { _ in nil }) { _, range in [UInt8](repeating: 7, count: Int(range.count)) }
        }
        #expect(throws: ManifestChunks.Mismatch.self) { try good.rebuild(held: { _ in nil }) { _, _ in [1, 2, 3] } }
    }

    /// A manifest of varied lines, its chunk-deflated copy and the description of that.
    static func deflatedSample() throws -> (plain: [UInt8], stored: [UInt8], chunks: [StoredChunk]) {
        let plain = Array((0..<6000).map { #""f\#($0).txt":{"sha":"\#(String(format: "%040x", $0 * 7919))"},"# }.joined().utf8)
        var stored = [UInt8]()
        let deflater = try ChunkDeflater(ManifestChunks.scheme) { stored.append(contentsOf: $0) }
        try plain.withUnsafeBytes { try deflater.update($0) }
        try deflater.finish()
        return (plain, stored, deflater.chunks)
    }

    /// The streamed rebuild hands a chunk on only once it is checked, and ends with a
    /// `Mismatch` for each way a delta can lie: what was handed on is whole checked chunks
    /// of the manifest, and the caller, seeing the error, discards it.
    @Test(arguments: ["wrong chunk", "wrong length", "truncated range", "wrong whole hash", "wrong held bytes"])
    func aHostileDeltaIsRefusedBeforeAnyUncheckedByteIsHandedOn(_ lie: String) throws {
        let (plain, stored, chunks) = try Self.deflatedSample()
        #expect(chunks.count > 3)
        var described = chunks
        var sha = SHA256.digest(plain)
        var heldChunk: ContentChunk?
        switch lie {
        case "wrong length":
            let second = chunks[1]
            described[1] = try #require(
                StoredChunk(length: Int64(second.length + 1), storedLength: Int64(second.storedLength), hash: second.hash, format: .gz))
        case "wrong whole hash": sha = SHA256.digest(plain + [0])
        case "wrong held bytes": heldChunk = chunks[0].content
        default: break
        }
        let description = try #require(ManifestChunks(file: "manifests/B-1.json.gz", chunks: described, sha256: sha))
        var handed = [UInt8]()
        #expect(throws: ManifestChunks.Mismatch.self) {
            try description.rebuild(
                held: { $0 == heldChunk ? [UInt8](repeating: 0x20, count: $0.length) : nil },
                stored: { index, range in
                    var bytes = Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
                    if index == 1 && lie == "wrong chunk" { bytes[bytes.count / 2] ^= 0x40 }
                    if index == 1 && lie == "truncated range" { bytes.removeLast() }
                    return bytes
                },
                into: { handed.append(contentsOf: $0) })
        }
        #expect(plain.starts(with: handed))
        #expect(handed.count == (lie == "wrong whole hash" ? plain.count : lie == "wrong held bytes" ? 0 : chunks[0].length))
    }

    /// Held chunks and fetched ones interleave: the held ones are taken as they are,
    /// checked, and the inflater follows them, so the fetched ones after them inflate.
    @Test func heldAndFetchedChunksMakeTheManifest() throws {
        let (plain, stored, chunks) = try Self.deflatedSample()
        let description = try #require(ManifestChunks(file: "manifests/B-1.json.gz", chunks: chunks, sha256: SHA256.digest(plain)))
        var offsets = [ContentChunk: Int]()
        var at = 0
        for (i, chunk) in chunks.enumerated() {
            if i % 2 == 0 { offsets[chunk.content] = at }
            at += chunk.length
        }
        var rebuilt = [UInt8]()
        var fetched = 0
        try description.rebuild(
            held: { chunk in offsets[chunk].map { Array(plain[$0..<($0 + chunk.length)]) } },
            stored: { _, range in
                fetched += 1
                return Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
            },
            into: { rebuilt.append(contentsOf: $0) })
        #expect(rebuilt == plain)
        #expect(fetched == chunks.count / 2)
    }
}
