import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `chunks/B-V.json.gz`: what an import writes of its large objects, in both formats,
/// and what a reader refuses.
@Suite struct ChunkListTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    static let noise = SampleContent.noise(3 << 20, seed: 1)
    static let prose = SampleContent.prose(3 << 20, seed: 2)

    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.chunks", in: FileStorage(root: dir.at("cat")))
        try dir.write("src/pack.bin", Self.noise)
        try dir.write("src/level.json", Self.prose)
        try dir.write("src/small.txt", "small files are not chunked")
    }

    func list(_ version: Int) throws -> ChunkList {
        try #require(try catalog.readChunkList(bundle: "B", version: version))
    }

    func object(_ path: String, version: Int) throws -> StoredObject {
        try #require(try catalog.manifest(bundle: "B", version: version).files[path]).object
    }

    /// Each chunk's stored bytes, inflated in order for gz (each given the content before
    /// it, as its layout's history says): they must make the file.
    func content(of layout: ObjectChunks, stored: [UInt8]) throws -> [UInt8] {
        var out = [UInt8]()
        let inflater = ChunkInflater(history: layout.history)
        for (chunk, range) in zip(layout.chunks, layout.storedRanges()) {
            var bytes = [UInt8](repeating: 0, count: chunk.length)
            let input = Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
            if layout.format == .gz {
                try input.withUnsafeBytes { source in try bytes.withUnsafeMutableBytes { try inflater.inflate(source, into: $0) } }
            } else {
                bytes = input
            }
            #expect(XXH64.hash(bytes) == chunk.hash.value)
            out += bytes
        }
        return out
    }

    @Test func anImportListsTheChunksOfItsLargeObjectsInTheirStoredBytes() throws {
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let list = try list(1)
        let pack = try object("pack.bin", version: 1)
        let level = try object("level.json", version: 1)
        #expect(Set(list.objects.keys) == [pack.digest, level.digest], "small files are not listed")

        let raw = try #require(list.objects[pack.digest])
        #expect(raw.format == .raw && raw.offset == 0 && raw.fits(pack))
        #expect(try content(of: raw, stored: dir.read("cat/" + pack.preferredPath)) == Self.noise)

        // Each chunk of the gzipped object inflates given the 32 KiB before it, and the
        // whole is still one gzip member, within 0.5 % of one deflate over the whole.
        let gz = try #require(list.objects[level.digest])
        #expect(gz.format == .gz && gz.offset == 10 && gz.fits(level) && gz.history == ObjectChunks.fullHistory)
        let stored = try dir.read("cat/" + level.preferredPath)
        #expect(try content(of: gz, stored: stored) == Self.prose)
        #expect(try GzipDecompressor.decompress(stored) == Self.prose)
        #expect(Double(stored.count) <= 1.005 * Double(GzipCompressor.compress(Self.prose).count))
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    /// A list written before chunks had a history (format 1) is still read: its gz
    /// chunks inflate alone, as they were deflated.
    @Test func aListOfFormatOneHasNoHistory() throws {
        let sha = String(repeating: "a", count: 40)
        let json =
            #"{"format":1,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"\#(sha)":"#
            + #"{"format":"gz","offset":10,"chunks":[[1000,100,"0000000000000001"]]}}}"#
        let list = try ChunkList.parse(Array(json.utf8), path: "chunks/B-1.json.gz")
        let digest = try #require(SHA1.Digest(hex: sha))
        #expect(list.objects[digest]?.history == 0)
        let written = String(decoding: list.encoded(), as: UTF8.self)
        #expect(written.contains(#""format":2"#) && written.contains(#""history":0"#))
        #expect(try ChunkList.parse(list.encoded(), path: "chunks/B-1.json.gz") == list)
    }

    @Test func aVersionOfSmallFilesHasNoChunkList() throws {
        try FileManager.default.removeItem(atPath: dir.at("src/pack.bin"))
        try FileManager.default.removeItem(atPath: dir.at("src/level.json"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        #expect(try catalog.readChunkList(bundle: "B", version: 1) == nil)
        #expect(!dir.exists("cat/chunks/B-1.json.gz"))
    }

    /// The same catalog, byte for byte, on one thread or several: with one, the large
    /// files are chunked after they are stored (as many large files as threads), with
    /// four as they are hashed.
    @Test func chunkListsAndFlushPointsDoNotDependOnTheThreads() throws {
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(workers: 1))
        let other = try Catalog.create(id: "com.example.chunks", in: FileStorage(root: dir.at("cat2")))
        _ = try other.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(workers: 4))
        for path in dir.files(under: "cat") where path.hasPrefix("chunks/") || path.hasPrefix("objects/") {
            #expect(try dir.read("cat/" + path) == dir.read("cat2/" + path), "\(path)")
        }
    }

    /// A full flush at every chunk costs little: the gzip object of text stays within a
    /// few percent of one deflated without them (this text: 3.8 %).
    @Test func flushPointsCostLittle() throws {
        func gzipped(chunks: [Int]?) throws -> Int {
            var size = 0
            var at = 0
            _ = try BlockGzipCompressor(workers: 2, chunks: chunks).compress(
                read: { buffer in
                    let count = min(buffer.count, Self.prose.count - at)
                    Self.prose[at..<(at + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
                    at += count
                    return count
                }, to: { size += $0.count })
            at = 0
            return size
        }
        var splitter = ChunkSplitter()
        Self.prose.withUnsafeBytes { splitter.update($0) }
        let chunked = try gzipped(chunks: splitter.finish().map(\.length))
        let plain = try gzipped(chunks: nil)
        #expect(Double(chunked) <= 1.05 * Double(plain), "\(chunked) against \(plain)")
    }

    /// An unchanged large object keeps its list from the version before, even when the
    /// stat cache spares it the hashing; a raw object stored before chunk lists gains one
    /// from its source; a gzipped one written without flush points is fetched whole.
    @Test func laterImportsListObjectsStoredBefore() throws {
        let cache = BundleImportOptions(statCacheFolder: dir.at("cache"))
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: cache)
        try dir.write("src/small.txt", "changed")
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: cache)
        #expect(try list(2).objects == list(1).objects)

        // As a catalog written before chunk lists: version 2 has none.
        try FileManager.default.removeItem(atPath: dir.at("cat/chunks/B-2.json.gz"))
        try dir.write("src/small.txt", "changed again")
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: cache)
        let pack = try object("pack.bin", version: 3)
        let level = try object("level.json", version: 3)
        #expect(try list(3).objects[pack.digest] == list(1).objects[pack.digest])
        #expect(try list(3).objects[level.digest] == nil)
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func deletingAVersionRemovesItsChunkList() throws {
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/small.txt", "changed")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        let cleaned = try CatalogClean(catalog, grace: .zero).run()
        #expect(cleaned.files.map(\.path).contains("chunks/B-1.json.gz"))
        #expect(!dir.exists("cat/chunks/B-1.json.gz") && dir.exists("cat/chunks/B-2.json.gz"))
    }

    @Test func verifyFindsAListThatDoesNotMatchItsObject() throws {
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        var list = try list(1)
        let level = try object("level.json", version: 1)
        let layout = try #require(list.objects[level.digest])
        var chunks = layout.chunks
        chunks[2] = try #require(
            StoredChunk(length: Int64(chunks[2].length), storedLength: Int64(chunks[2].storedLength), hash: ChunkHash(7), format: .gz))
        list.objects[level.digest] = ObjectChunks(format: .gz, offset: layout.offset, chunks: chunks, history: Int64(layout.history))
        try dir.write("cat/chunks/B-1.json.gz", GzipCompressor.compress(list.encoded()))
        let problems = try CatalogVerification(catalog).run().problems.map { "\($0.path): \($0.problem)" }
        #expect(problems == ["\(level.preferredPath): does not match its chunk list: chunk 2 does not have the hash its list gives"])
    }

    static let hostileLists: [(String, String)] = [
        ("not json", "not a JSON object"),
        (#"{"format":3,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{}}"#, "not a chunk list of format 1 or 2"),
        (
            #"{"format":2,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"\#(String(repeating: "a", count: 40))":"#
                + #"{"format":"gz","offset":10,"chunks":[[1000,100,"0000000000000001"]]}}}"#, "lacks its format, offset, history"
        ),
        (
            #"{"format":2,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"\#(String(repeating: "a", count: 40))":"#
                + #"{"format":"gz","history":1000,"offset":10,"chunks":[[1000,100,"0000000000000001"]]}}}"#, "history is not 0 or 32768"
        ),
        (#"{"format":1,"chunking":"rabin","objects":{}}"#, "not cut by"),
        (#"{"format":1,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"xyz":{}}}"#, "is not a SHA-1"),
        (
            #"{"format":1,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"\#(String(repeating: "a", count: 40))":{"format":"raw","offset":0}}}"#,
            "lacks"
        ),
        (entry(format: "raw", offset: 0, chunks: "[[0,0,\"0000000000000001\"]]"), "within the chunking's bounds"),
        (entry(format: "raw", offset: 0, chunks: "[[300000,300000,\"0000000000000001\"]]"), "within the chunking's bounds"),
        (entry(format: "raw", offset: 0, chunks: "[[1000,999,\"0000000000000001\"]]"), "within the chunking's bounds"),
        (entry(format: "gz", offset: 10, chunks: "[[200000,10,\"0000000000000001\"]]"), "within the chunking's bounds"),
        (entry(format: "gz", offset: 10, chunks: "[[1000,100,\"00000000000000zz\"]]"), "within the chunking's bounds"),
        (entry(format: "raw", offset: 5, chunks: "[[1000,1000,\"0000000000000001\"]]"), "do not fit in one object"),
        (entry(format: "gz", offset: 9_223_372_036_854_775_000, chunks: "[[1000,1000,\"0000000000000001\"]]"), "do not fit in one object"),
        (entry(format: "raw", offset: 0, chunks: "[]"), "do not fit in one object"),
    ]

    static func entry(format: String, offset: Int64, chunks: String) -> String {
        #"{"format":1,"chunking":"fastcdc-gear64-16k-64k-256k","objects":{"\#(String(repeating: "a", count: 40))":"#
            + #"{"format":"\#(format)","offset":\#(offset),"chunks":\#(chunks)}}}"#
    }

    @Test(arguments: hostileLists) func aHostileListIsRefusedByName(_ json: String, _ reason: String) {
        #expect {
            try ChunkList.parse(Array(json.utf8), path: "chunks/B-1.json.gz")
        } throws: { error in
            guard let error = error as? ZincError, error.code == .corruptFile, let why = error.reason else { return false }
            return error.path == "chunks/B-1.json.gz" && why.contains(reason)
        }
    }

    /// A list that parses may still not fit the object the manifest records: then it
    /// is not used.
    @Test func aListMustFitTheObjectItNames() throws {
        let chunk = try #require(StoredChunk(length: 1000, storedLength: 1000, hash: ChunkHash(1), format: .raw))
        let raw = try #require(ObjectChunks(format: .raw, offset: 0, chunks: [chunk, chunk]))
        let digest = SHA1.digest(Array("x".utf8))
        #expect(raw.fits(StoredObject(digest: digest, formats: [.raw: 2000])))
        #expect(!raw.fits(StoredObject(digest: digest, formats: [.raw: 2001])))
        #expect(!raw.fits(StoredObject(digest: digest, formats: [.gz: 2000])))
        let gz = try #require(ObjectChunks(format: .gz, offset: 10, chunks: [chunk]))
        #expect(gz.fits(StoredObject(digest: digest, formats: [.gz: 1020])))
        #expect(!gz.fits(StoredObject(digest: digest, formats: [.gz: 1019])))
        let encoded = ChunkList(objects: [digest: raw, SHA1.digest(Array("y".utf8)): gz]).encoded()
        #expect(try ChunkList.parse(encoded, path: "x") == ChunkList(objects: [digest: raw, SHA1.digest(Array("y".utf8)): gz]))
    }
}
