import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// A manifest read from a file as a stream (`StreamedDocument`): the same manifest as
/// one parsed whole, any size with memory flat, and hostile files refused naming the file.
@Suite struct StreamedManifestTests {
    let sha = "2e75c8e57ab9ed44cd8f0f8666da5761ea280973"

    /// Writes `pieces` through gzip to `path`, never holding them whole.
    func writeGzipped(_ path: String, _ pieces: (([UInt8]) throws -> Void) throws -> Void) throws {
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        let gzip = GzipCompressor { try file.write(contentsOf: Data($0)) }
        try pieces { piece in try piece.withUnsafeBytes { try gzip.update($0) } }
        try gzip.finish()
    }

    func create(_ path: String) { FileManager.default.createFile(atPath: path, contents: nil) }

    func entry(_ path: String) -> String {
        #""\#(path)":{"formats":{"raw":{"size":3}},"sha":"\#(sha)"}"#
    }

    @Test func aStreamedManifestIsTheManifestParsedWhole() throws {
        let dir = try TemporaryDirectory()
        // Escaped and non-ASCII paths, so that tokens straddle the pieces.
        let files = (0..<3000).map { entry("d\($0 % 7)/f\\u00e9 \\\"\($0)\\\"\\/ü-\($0).png") }.joined(separator: ",")
        let json = Array(#"{"bundle":"B","catalog":"c","files":{\#(files)},"flavors":[],"version":3}"#.utf8)
        #expect(json.count > 3 * (1 << 16))
        create(dir.at("m.json.gz"))
        try writeGzipped(dir.at("m.json.gz")) { try $0(json) }
        try Data(json).write(to: dir.url("m.json"))
        let whole = try Manifest.parse(json, path: "m")
        #expect(whole.files.count == 3000)
        #expect(try Manifest.parse(StreamedDocument(path: dir.at("m.json"), name: "m", gzipped: false)) == whole)
        var copied = [UInt8]()
        let streamed = try Manifest.parse(
            StreamedDocument(path: dir.at("m.json.gz"), name: "m", gzipped: true) { copied.append(contentsOf: $0) })
        #expect(streamed == whole)
        #expect(copied == json)
    }

    /// 120 MB of JSON, more than the 112 MB of a manifest of 1,000,000 files and the 64 MiB
    /// a whole read allowed, read with the process's memory growing by far less.
    @Test func aManifestAboveAHundredMegabytesIsReadWithMemoryFlat() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.at("big.json.gz")
        create(path)
        let count = 100_000
        let padding = [UInt8](repeating: 0x20, count: 1100)
        try writeGzipped(path) { put in
            try put(Array(#"{"bundle":"B","catalog":"c","flavors":[],"version":1,"files":{"#.utf8))
            var piece = [UInt8]()
            for i in 0..<count {
                if i > 0 { piece.append(UInt8(ascii: ",")) }
                piece += padding
                piece += Array(entry("folder/\(String(repeating: "x", count: 40))/file-\(i).png").utf8)
                if piece.count > 1 << 20 {
                    try put(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
            try put(piece + Array("}}".utf8))
        }
        // Read in a process of its own: the tests running beside this one in the same
        // process would move its resident set too.
        await #expect(processExitsWith: .success) { [path = path as String, count = count as Int] in
            let before = Self.residentBytes()
            var seen = 0
            var peak = before
            let document = try StreamedDocument(path: path, name: "big.json.gz", gzipped: true)
            let manifest = try Manifest.parse(document) { _, _ in
                seen += 1
                if seen % 10_000 == 0 { peak = max(peak, Self.residentBytes()) }
            }
            #expect(manifest.version == 1)
            #expect(seen == count)
            #expect(document.count > 120_000_000)
            #expect(peak - before < 32 << 20)
        }
    }

    /// A manifest of 64 MB brought from an earlier version's by a delta, as a client does
    /// (`ManifestDelta`): the held file cut as it is read, held chunks and fetched ranges
    /// read back with `pread`, the rebuild written to a file as each chunk is checked. The
    /// process's memory grows by far less than the manifest (the whole-array rebuild held
    /// the held manifest, the ranges and the result: three times its size).
    @Test func aManifestRebuiltByDeltaKeepsMemoryFlat() async throws {
        let dir = try TemporaryDirectory()
        let count = 60_000
        let padding = String(repeating: " ", count: 1000)
        /// The manifest of `version`, which differs from the other in one file in 5,000.
        func write(version: Int, to path: String, _ also: (UnsafeRawBufferPointer) throws -> Void = { _ in }) throws {
            create(path)
            let file = try PosixFile.open(path, flags: O_WRONLY)
            var piece = [UInt8]()
            func put(_ bytes: [UInt8]) throws {
                try file.write(bytes)
                try bytes.withUnsafeBytes { try also($0) }
            }
            for i in 0..<count {
                let changed = i % 5000 == 17 ? version : 0
                piece += Array("\(i == 0 ? "" : ",")\(padding)\(entry("folder/file-\(i)-\(changed).png"))".utf8)
                if piece.count > 1 << 20 {
                    try put(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
            try put(piece)
        }
        let gz = try PosixFile.open(dir.at("new.gz"), flags: O_WRONLY | O_CREAT)
        let deflater = try ChunkDeflater(ManifestChunks.scheme) { try gz.write($0) }
        let hasher = SHA256()
        try write(version: 2, to: dir.at("new.json")) {
            try deflater.update($0)
            hasher.update($0)
        }
        try deflater.finish()
        let description = try #require(ManifestChunks(file: "manifests/B-2.json.gz", chunks: deflater.chunks, sha256: hasher.finalize()))
        try FileManager.default.removeItem(atPath: dir.at("new.json"))
        try write(version: 1, to: dir.at("held.json"))
        create(dir.at("rebuilt.json"))
        #expect(description.size > 64_000_000)

        // Rebuilt in a process of its own: the tests running beside this one in the same
        // process would move its resident set too.
        await #expect(processExitsWith: .success) { [described = description.encoded() as [UInt8], folder = dir.path as String] in
            let description = try ManifestChunks.parse(described, path: "new", bundle: "B", version: 2)
            let held = try PosixFile.open(folder + "/held.json")
            let fetched = try PosixFile.open(folder + "/new.gz")
            let out = try PosixFile.open(folder + "/rebuilt.json", flags: O_WRONLY)
            let before = Self.residentBytes()
            var peak = before
            let heldAt = try ManifestChunks.chunks(of: held)
            var ranges = 0
            try description.rebuild(
                held: { chunk in try heldAt[chunk].map { try held.readAll(upTo: chunk.length, at: $0) } },
                stored: { _, range in
                    ranges += 1
                    return try fetched.readAll(upTo: Int(range.count), at: range.lowerBound)
                },
                into: {
                    try out.write($0)
                    peak = max(peak, Self.residentBytes())
                })
            #expect(ranges > 0 && ranges < description.layout.chunks.count / 10, "\(ranges) of \(description.layout.chunks.count) fetched")
            #expect(peak - before < 32 << 20)
        }
        #expect(try SHA256.digest(reading: PosixFile.open(dir.at("rebuilt.json"))) == description.sha256)
    }

    @Test func aGzipBombIsRefusedAtItsLimitNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.at("bomb.json.gz")
        create(path)
        let zeros = [UInt8](repeating: 0x20, count: 1 << 20)
        try writeGzipped(path) { put in
            try put(Array(#"{"files":{"#.utf8))
            for _ in 0..<200 { try put(zeros) }
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size.map { $0 < 1 << 20 } == true)
        #expect {
            try Manifest.parse(StreamedDocument(path: path, name: "https://h/manifests/B-1.json.gz", gzipped: true, limit: 64 << 20))
        } throws: { error in
            "\(error)".contains("https://h/manifests/B-1.json.gz") && "\(error)".contains("unpacks to more than 67108864 bytes")
        }
    }

    @Test func aManifestLargerThanItsGzipTrailerDeclaresIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.at("m.json.gz")
        create(path)
        let json = Array(#"{"bundle":"B","catalog":"c","files":{\#(entry("a.png"))},"flavors":[],"version":1}"#.utf8)
        try writeGzipped(path) { try $0(json) }
        var gzipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        gzipped.replaceSubrange((gzipped.count - 4)..., with: [10, 0, 0, 0])
        try Data(gzipped).write(to: URL(fileURLWithPath: path))
        #expect {
            try Manifest.parse(StreamedDocument(path: path, name: "m.json.gz", gzipped: true))
        } throws: { error in
            (error as? ZincError)?.path == "m.json.gz" && "\(error)".contains("unpacks to more than 10 bytes")
        }
    }

    @Test func anEndlessStringOrStreamIsRefusedNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        let endlessString = Array(#"{"files":{"a":{"sha":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        try Data(endlessString).write(to: dir.url("string.json"))
        #expect {
            try Manifest.parse(StreamedDocument(path: dir.at("string.json"), name: "string.json", gzipped: false))
        } throws: { error in
            (error as? ZincError)?.path == "string.json" && "\(error)".contains("a value longer than 1048576 bytes")
        }
        let endlessSpace = Array(#"{"files":{"#.utf8) + [UInt8](repeating: 0x20, count: 3 << 20)
        try Data(endlessSpace).write(to: dir.url("space.json"))
        #expect {
            try Manifest.parse(StreamedDocument(path: dir.at("space.json"), name: "space.json", gzipped: false, limit: 1 << 20))
        } throws: { error in
            (error as? ZincError)?.path == "space.json" && "\(error)".contains("holds more than 1048576 bytes")
        }
    }

    /// The process's resident set now, from /proc (0 where there is none).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = status.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
