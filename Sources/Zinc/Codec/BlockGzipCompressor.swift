import CZlib
import Synchronization

/// Gzip for files too large to hold whole, on several cores. The input is cut into
/// blocks, each deflated on its own and ended with a sync flush, so the blocks' outputs
/// join into one ordinary single-member gzip stream. Block boundaries depend only on the
/// input, never on the number of threads: the bytes are the same on one core or many
/// (the scheme pigz uses).
///
/// Each block is primed with the 32 KiB before it (all the history deflate can refer
/// back to, less at the start), so the whole is within about 0.1 % of the size of one
/// deflate over the input. Blocks are `blockSize` bytes, or, given an object's
/// content-defined chunks, one per chunk, so that each chunk's deflated bytes inflate
/// given the content before it (see `ChunkList`).
final class BlockGzipCompressor {
    /// Priming a block with its history costs about as much as deflating 32 KiB of it:
    /// with 256 KiB blocks, zero-filled data took 25 % longer than with 1 MiB.
    static let blockSize = 1 << 20
    /// The gzip header's length: where the first block's deflated bytes start.
    static let headerLength = 10
    static let historySize = 1 << 15

    private let workers: Int
    /// Input bytes deflated per batch, side by side.
    private let batchSize: Int
    private let memory: BatchMemory
    private let deflaters = DeflaterPool()
    /// The chunk lengths to cut at, in order, when compressing chunk by chunk.
    private let chunks: [Int]?
    /// After `compress` with chunks: each chunk's deflated length.
    private(set) var storedLengths = [Int]()

    /// `workers` threads deflate blocks at once (nil: one per available core). With
    /// `chunks`, the lengths of the input's content-defined chunks, a block is a chunk.
    init(workers: Int?, chunks: [Int]? = nil) {
        self.workers = max(1, workers ?? AvailableCores.count)
        self.chunks = chunks
        // Two blocks per thread keep every thread busy when blocks take unequal times
        // (one thread alone has nothing to balance); the cap bounds memory on large
        // machines (16 MiB in, 16 MiB out), leaving threads beyond the 16th idle.
        batchSize = (self.workers == 1 ? 1 : min(2 * self.workers, 16)) * Self.blockSize
        let mostBlocks = batchSize / ContentChunker.minimumSize + 2
        memory = BatchMemory(
            inputSize: Self.historySize + batchSize, outputSize: batchSize + batchSize / 256 + mostBlocks * 80)
    }

    /// The last `historySize` bytes before the batch, then the batch.
    private var input: UnsafeMutableRawBufferPointer { memory.input }
    /// Room for every block of a batch deflated at worst (see `outputBound`).
    private var outputs: UnsafeMutableRawBufferPointer { memory.outputs }

    /// What one block of `length` bytes may deflate to, at worst, with its flush marker:
    /// above zlib's `compressBound`.
    static func outputBound(_ length: Int) -> Int { length + length / 256 + 80 }

    /// Gzips everything `read` yields (it fills the buffer it is given unless the input
    /// ends), handing the stream to `sink` in order. Returns how many bytes it read.
    func compress(
        read: (UnsafeMutableRawBufferPointer) throws -> Int,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
        try Self.header.withUnsafeBytes { try sink($0) }
        let batch = UnsafeMutableRawBufferPointer(rebasing: input[Self.historySize...])
        var total: Int64 = 0
        var crc = crc32(0, nil, 0)
        var nextChunk = 0
        // Bytes at the batch's start carried over from the previous one: a chunk it ended within.
        var carried = 0
        storedLengths = []
        while true {
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: batch[carried...]))
            let atEnd = carried + count < batch.count
            let filled = carried + count
            let blocks = plan(filled: filled, atEnd: atEnd, nextChunk: &nextChunk)
            let consumed = blocks.last.map { $0.start + $0.length } ?? 0
            // The input before the batch still held in front of it.
            let before = Int(min(total, Int64(Self.historySize)))
            let deflated = try parallelMap(count: blocks.count, workers: workers) { [memory, deflaters] b in
                Self.deflateBlock(
                    blocks[b], history: min(Self.historySize, before + blocks[b].start), in: memory, using: deflaters)
            }
            for (block, result) in zip(blocks, deflated) {
                try sink(UnsafeRawBufferPointer(rebasing: outputs[block.output..<(block.output + result.size)]))
                crc = crc32_combine(crc, result.crc, block.length)
                if chunks != nil { storedLengths.append(result.size) }
            }
            total += Int64(consumed)
            if atEnd { break }
            // The history before the carried bytes, then the carried bytes, to the front.
            carried = filled - consumed
            input.baseAddress!.copyMemory(from: batch.baseAddress! + consumed - Self.historySize, byteCount: Self.historySize + carried)
        }
        try Self.trailer(crc: crc, total: total).withUnsafeBytes { try sink($0) }
        return total
    }

    private struct Block {
        /// Offset in the batch.
        let start: Int
        let length: Int
        /// Offset in `outputs`.
        let output: Int
    }

    /// The blocks of a batch holding `filled` bytes: every whole chunk (or fixed-size
    /// block) in it, and at the end of the input whatever is left. Input beyond the
    /// chunks given (a file that grew while read, which the caller refuses) is cut into
    /// blocks of the longest chunk.
    private func plan(filled: Int, atEnd: Bool, nextChunk: inout Int) -> [Block] {
        var blocks = [Block]()
        var start = 0
        var output = 0
        while start < filled {
            var length: Int
            if let chunks, nextChunk < chunks.count {
                length = chunks[nextChunk]
            } else {
                length = chunks == nil ? Self.blockSize : ContentChunker.maximumSize
            }
            if start + length > filled {
                guard atEnd else { break }
                length = filled - start
            } else if chunks != nil {
                nextChunk += 1
            }
            blocks.append(Block(start: start, length: length, output: output))
            start += length
            output += Self.outputBound(length)
        }
        return blocks
    }

    private struct DeflatedBlock {
        let size: Int
        let crc: uLong
    }

    /// Deflates `block` of the batch in `memory` into its room there, with a stream of
    /// `deflaters`: a static function, so that the lanes share only what is `Sendable`.
    private static func deflateBlock(
        _ block: Block, history: Int, in memory: BatchMemory, using deflaters: DeflaterPool
    ) -> DeflatedBlock {
        let stream = deflaters.take()
        defer { deflaters.put(stream) }
        let start = (memory.input.baseAddress! + Self.historySize + block.start).assumingMemoryBound(to: Bytef.self)
        let size = deflateFlushed(
            start, length: block.length, history: history,
            into: (memory.outputs.baseAddress! + block.output).assumingMemoryBound(to: Bytef.self), stream: stream)
        return DeflatedBlock(size: size, crc: crc32(0, start, uInt(block.length)))
    }

    /// Deflates the `length` bytes at `start`, given the `history` bytes before them as
    /// preset dictionary, ended by a sync flush, into `output` (room for `outputBound`);
    /// returns the deflated length. What every block and chunk of a block gzip stream is.
    static func deflateFlushed(
        _ start: UnsafePointer<Bytef>, length: Int, history: Int, into output: UnsafeMutablePointer<Bytef>,
        stream: UnsafeMutablePointer<z_stream>
    ) -> Int {
        deflateReset(stream)
        if history > 0 { deflateSetDictionary(stream, start - history, uInt(history)) }
        let capacity = outputBound(length)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: start)
        stream.pointee.avail_in = uInt(length)
        stream.pointee.next_out = output
        stream.pointee.avail_out = uInt(capacity)
        let status = deflate(stream, Z_SYNC_FLUSH)
        precondition(
            status == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0,
            "zlib deflate of a block failed: \(status)")
        return capacity - Int(stream.pointee.avail_out)
    }

    /// What zlib writes for `GzipCompressor`: no name, mtime 0, no extra flags, OS Unix.
    static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]

    /// An empty final block (fixed Huffman codes: the end-of-block code alone), then the
    /// CRC-32 and the length mod 2^32, little-endian.
    static func trailer(crc: uLong, total: Int64) -> [UInt8] {
        let size = UInt32(truncatingIfNeeded: total)
        return [0x03, 0x00] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
    }
}

/// Raw-deflate states, reused from block to block: setting one up costs a few hundred
/// KiB of allocations. There are never more than the threads deflating at once.
final class DeflaterPool: Sendable {
    /// Idle states, by address (a pointer is not `Sendable`).
    private let idle = Mutex<[UInt]>([])

    func take() -> UnsafeMutablePointer<z_stream> {
        if let reused = idle.withLock({ $0.popLast() }) { return UnsafeMutablePointer(bitPattern: reused)! }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: raw deflate, the gzip wrapper is written by hand.
        let status = deflateInit2_(
            stream, GzipCompressor.defaultLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
        return stream
    }

    func put(_ stream: UnsafeMutablePointer<z_stream>) {
        idle.withLock { $0.append(UInt(bitPattern: stream)) }
    }

    deinit {
        for address in idle.withLock({ $0 }) {
            let stream = UnsafeMutablePointer<z_stream>(bitPattern: address)!
            deflateEnd(stream)
            stream.deallocate()
        }
    }
}

/// A batch's memory, which the lanes share: they read the input, and each writes the
/// room of the block it deflates, apart from the others'. Held by address, as in
/// `AlignedBuffers`: a raw pointer is not `Sendable`.
private final class BatchMemory: Sendable {
    private let inputStart: UInt
    private let inputSize: Int
    private let outputStart: UInt
    private let outputSize: Int

    init(inputSize: Int, outputSize: Int) {
        self.inputSize = inputSize
        self.outputSize = outputSize
        inputStart = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: inputSize, alignment: 16))
        outputStart = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: outputSize, alignment: 16))
    }

    deinit {
        input.baseAddress!.deallocate()
        outputs.baseAddress!.deallocate()
    }

    var input: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: .init(bitPattern: inputStart), count: inputSize) }
    var outputs: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: .init(bitPattern: outputStart), count: outputSize)
    }
}
