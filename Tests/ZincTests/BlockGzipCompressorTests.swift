import Testing
import ZincTestSupport

@testable import Zinc

/// Gzip of large files in blocks: one valid gzip member whatever the length, the same
/// bytes on any number of threads, and about the size of one deflate over the whole.
@Suite struct BlockGzipCompressorTests {
    static let block = BlockGzipCompressor.blockSize

    func gzip(_ content: [UInt8], workers: Int) throws -> [UInt8] {
        var out = [UInt8]()
        var offset = 0
        let read = try BlockGzipCompressor(workers: workers).compress(
            read: { buffer in
                let n = min(buffer.count, content.count - offset)
                buffer.copyBytes(from: content[offset..<(offset + n)])
                offset += n
                return n
            }, to: { out.append(contentsOf: $0) })
        #expect(read == content.count)
        return out
    }

    // Around block and batch boundaries (a batch is one block for one thread, else two
    // blocks per thread).
    @Test(arguments: [0, 1, block - 1, block, block + 1, 2 * block, 4 * block, 4 * block + 1, 6 * block + 17])
    func roundTripsWithTheSameBytesOnAnyNumberOfThreads(length: Int) throws {
        let content = SampleContent.text(length)
        let one = try gzip(content, workers: 1)
        #expect(try GzipDecompressor.decompress(one) == content)
        for workers in [2, 3, 8] {
            #expect(try gzip(content, workers: workers) == one)
        }
    }

    @Test func isAboutAsSmallAsOneDeflateOverTheWhole() throws {
        let content = SampleContent.text(3_000_000) + SampleContent.noise(300_000, seed: 2) + SampleContent.text(1_900_000, word: "pcm")
        let blocks = try gzip(content, workers: 2)
        #expect(Double(blocks.count) <= Double(GzipCompressor.compress(content).count) * 1.005)
    }

    @Test func matchesReachBackAcrossBlockBoundaries() throws {
        // 20 KB of noise, 200 times over four blocks. Each block refers back to the
        // 32 KiB before it, so only the first copy costs its size (one deflate over the
        // whole gives 49 KB); blocks deflated without that history would take 80 KB more.
        let content = Array(repeatElement(SampleContent.noise(20_000, seed: 5), count: 200).joined())
        #expect(try gzip(content, workers: 2).count < 55_000)
    }
}
