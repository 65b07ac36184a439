import Testing
import ZincTestSupport

@testable import Zinc

/// The chunk boundaries are part of the catalog format: every writer must cut the same
/// bytes the same way, whatever the buffers it reads them in.
@Suite struct ContentChunkerTests {
    static let stream = SampleContent.noise(3 << 20, seed: 7)

    static func cuts(_ bytes: [UInt8], readingBy size: Int) -> [Int] {
        var chunker = ContentChunker()
        var cuts = [Int]()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            bytes[start..<end].withUnsafeBytes { buffer in chunker.scan(buffer) { cuts.append(start + $0) } }
            start = end
        }
        return cuts
    }

    @Test func boundariesAreFixedByTheFormat() {
        let cuts = Self.cuts(Self.stream, readingBy: 1 << 20)
        // Known answer: a change here changes the format (docs/FORMAT.md, "Chunk lists").
        #expect(Array(cuts.prefix(6)) == [27097, 98454, 177671, 269062, 353741, 425892])
        #expect(cuts.count == 42)
    }

    @Test(arguments: [1, 7, 4096, 65536, 300_000]) func boundariesDoNotDependOnTheReads(_ size: Int) {
        #expect(Self.cuts(Self.stream, readingBy: size) == Self.cuts(Self.stream, readingBy: 1 << 22))
    }

    @Test func chunksStayWithinTheirBounds() {
        let cuts = [0] + Self.cuts(Self.stream, readingBy: 1 << 20)
        let lengths = zip(cuts, cuts.dropFirst()).map { $1 - $0 }
        #expect(lengths.allSatisfy { $0 >= ContentChunker.minimumSize && $0 <= ContentChunker.maximumSize })
        // Zeros never qualify: every chunk is as long as the chunker allows.
        let zeros = Self.cuts([UInt8](repeating: 0, count: 1 << 20), readingBy: 1 << 16)
        #expect(zeros == [1, 2, 3, 4].map { $0 * ContentChunker.maximumSize }.filter { $0 <= 1 << 20 })
    }

    /// An edit moves the boundaries next to it, no others: the chunks of the edited
    /// stream are, but for the few around the edit, chunks of the original.
    @Test func anEditChangesOnlyTheChunksAroundIt() {
        func chunks(_ bytes: [UInt8]) -> Set<ContentChunk> {
            var splitter = ChunkSplitter()
            bytes.withUnsafeBytes { splitter.update($0) }
            return Set(splitter.finish())
        }
        let original = chunks(Self.stream)
        var flipped = Self.stream
        flipped[1_500_000] ^= 1
        #expect(chunks(flipped).subtracting(original).count == 1)
        let inserted = Array(Self.stream[..<1_500_000]) + SampleContent.noise(4096, seed: 9) + Self.stream[1_500_000...]
        #expect(chunks(inserted).subtracting(original).count <= 3)
        let appended = Self.stream + SampleContent.noise(1 << 20, seed: 10)
        #expect(original.subtracting(chunks(appended)).count <= 1)
    }

    /// Within one ring of reads, around it more than once, and ending exactly at the end
    /// of a read (the next read finds nothing).
    @Test(arguments: [3 << 20, (9 << 20) + 123, ChunkingDigest.readSize * (ChunkingDigest.slots + 1)])
    func theDigestOfAFileIsItsSHA1AndItsChunksCoverIt(size: Int) throws {
        let dir = try TemporaryDirectory()
        let stream = size == Self.stream.count ? Self.stream : SampleContent.noise(size, seed: 8)
        let (digest, chunks) = try ChunkingDigest.digest(file: PosixFile.openForReading(dir.write("stream", stream)))
        #expect(digest == SHA1.digest(stream))
        var splitter = ChunkSplitter()
        stream.withUnsafeBytes { splitter.update($0) }
        #expect(chunks == splitter.finish())
        #expect(chunks.reduce(0) { $0 + $1.length } == stream.count)
        var offset = 0
        for chunk in chunks {
            #expect(XXH64.hash(Array(stream[offset..<(offset + chunk.length)])) == chunk.hash.value)
            offset += chunk.length
        }
    }

    /// Known answers from the reference implementation (python-xxhash), across the
    /// stripe and tail boundaries, and fed in pieces.
    @Test func xxh64MatchesTheReference() {
        let cases: [([UInt8], UInt64)] = [
            ([], 0xef46_db37_51d8_e999), (Array("a".utf8), 0xd24e_c4f1_a98c_6e5b), (Array("abc".utf8), 0x44bc_2cf5_ad77_0999),
            ((0..<5).flatMap { _ in (0...255).map { UInt8($0) } }, 0xafc1_84ad_7938_a354),
            (Array(repeating: UInt8(ascii: "x"), count: 31), 0x60dd_0d01_083b_99f0),
            (Array(repeating: UInt8(ascii: "y"), count: 32), 0x64da_1f1d_3495_ce66),
            (Array(repeating: UInt8(ascii: "z"), count: 33), 0xc524_1253_c64e_0268),
            (Array(repeating: UInt8(ascii: "w"), count: 100), 0x5674_932b_2390_d9d1),
        ]
        for (bytes, expected) in cases {
            #expect(XXH64.hash(bytes) == expected)
            var pieces = XXH64()
            for start in stride(from: 0, to: bytes.count, by: 7) {
                bytes[start..<min(bytes.count, start + 7)].withUnsafeBytes { pieces.update($0) }
            }
            #expect(pieces.digest() == expected)
        }
    }
}
