import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// Reading files that may be sparse: holes come out as zeros, without being read.
@Suite struct SparseReaderTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
    }

    /// A 24 MiB file that is mostly holes: data at 5 MiB and just before 20 MiB, then a
    /// hole to its end. Returns its path and its content.
    func sparseFile() throws -> (String, [UInt8]) {
        let path = dir.at("sparse")
        var content = [UInt8](repeating: 0, count: 24 << 20)
        let file = try PosixFile.open(path, flags: O_CREAT | O_WRONLY)
        for (offset, data) in [(5 << 20, SampleContent.noise(10_000, seed: 1)), ((20 << 20) - 4096, SampleContent.noise(4096, seed: 2))] {
            try file.write(data, at: Int64(offset))
            content.replaceSubrange(offset..<(offset + data.count), with: data)
        }
        #expect(ftruncate(file.fd, off_t(content.count)) == 0)
        return (path, content)
    }

    func readInChunks(_ path: String, chunk: Int) throws -> [UInt8] {
        let reader = SparseReader(try PosixFile.openForReading(path))
        var out = [UInt8]()
        try reader.forEachChunk(chunkSize: chunk) { out.append(contentsOf: $0) }
        return out
    }

    @Test func holesComeOutAsZeros() throws {
        let (path, content) = try sparseFile()
        for chunk in [1 << 20, 65_537, 3 << 20] {
            #expect(try readInChunks(path, chunk: chunk) == content)
        }
        #expect(try SHA1.digest(file: PosixFile.openForReading(path)) == SHA1.digest(content))
    }

    #if os(Linux)
    @Test func holesAreNotRead() throws {
        let (path, _) = try sparseFile()
        var st = stat()
        #expect(stat(path, &st) == 0)
        // Only where the file system stores the file sparsely.
        guard Int64(st.st_blocks) * 512 < Int64(st.st_size) / 2 else { return }
        // The calling thread's count of bytes read by system calls.
        func bytesRead() throws -> Int {
            let io = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
            let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("rchar:") })
            return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
        }
        let before = try bytesRead()
        _ = try SHA1.digest(file: PosixFile.openForReading(path))
        #expect(try bytesRead() - before < 1 << 20)
    }
    #endif

    @Test func aDenseFileIsReadWhole() throws {
        let content = SampleContent.noise(3_000_001, seed: 7)
        let path = try dir.write("dense", content)
        #expect(try readInChunks(path, chunk: 1 << 20) == content)
        #expect(try readInChunks(dir.write("empty", []), chunk: 1 << 20) == [])
    }
}
