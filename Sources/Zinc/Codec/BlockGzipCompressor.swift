import CZlib
import Synchronization

/// Gzip for files too large to hold whole, on several cores. The input is cut into
/// blocks of `blockSize` bytes; each is deflated on its own, primed with the 32 KiB
/// before it (all the history deflate can refer back to) and ended with a sync flush, so
/// the blocks' outputs join into one ordinary single-member gzip stream, within about
/// 0.1 % of the size of one deflate over the whole input. Block boundaries depend only
/// on the input, never on the number of threads: the bytes are the same on one core or
/// many (the scheme pigz uses).
final class BlockGzipCompressor {
    /// Priming a block with its history costs about as much as deflating 32 KiB of it:
    /// with 256 KiB blocks, zero-filled data took 25 % longer than with 1 MiB.
    static let blockSize = 1 << 20
    private static let historySize = 1 << 15
    /// Room for a block deflated at worst (stored) plus its sync flush marker.
    private static let outputCapacity = Int(compressBound(uLong(blockSize))) + 64

    private let workers: Int
    /// The last `historySize` bytes before the batch, then the batch's blocks.
    private let input: UnsafeMutableRawBufferPointer
    /// One region of `outputCapacity` bytes per block of a batch.
    private let outputs: UnsafeMutableRawBufferPointer
    private let deflaters = DeflaterPool()

    /// `workers` threads deflate blocks at once (nil: one per available core).
    init(workers: Int?) {
        self.workers = max(1, workers ?? AvailableCores.count)
        // Two blocks per thread keep every thread busy when blocks take unequal times
        // (one thread alone has nothing to balance); the cap bounds memory on large
        // machines (16 MiB in, 16 MiB out), leaving threads beyond the 16th idle.
        let batchBlocks = self.workers == 1 ? 1 : min(2 * self.workers, 16)
        input = .allocate(byteCount: Self.historySize + batchBlocks * Self.blockSize, alignment: 16)
        outputs = .allocate(byteCount: batchBlocks * Self.outputCapacity, alignment: 16)
    }

    deinit {
        input.deallocate()
        outputs.deallocate()
    }

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
        while true {
            let count = try read(batch)
            let history = Int(min(total, Int64(Self.historySize)))
            let blocks = (count + Self.blockSize - 1) / Self.blockSize
            let deflated = try parallelMap(count: blocks, workers: workers) { b in
                deflateBlock(
                    b, length: min(Self.blockSize, count - b * Self.blockSize),
                    history: b == 0 ? history : Self.historySize)
            }
            for (b, block) in deflated.enumerated() {
                let start = b * Self.outputCapacity
                try sink(UnsafeRawBufferPointer(rebasing: outputs[start..<(start + block.size)]))
                crc = crc32_combine(crc, block.crc, block.length)
            }
            total += Int64(count)
            guard count == batch.count else { break }
            input.baseAddress!.copyMemory(from: batch.baseAddress! + count - Self.historySize, byteCount: Self.historySize)
        }
        try Self.trailer(crc: crc, total: total).withUnsafeBytes { try sink($0) }
        return total
    }

    private struct DeflatedBlock {
        let size: Int
        let crc: uLong
        let length: Int
    }

    private func deflateBlock(_ b: Int, length: Int, history: Int) -> DeflatedBlock {
        let stream = deflaters.take()
        defer { deflaters.put(stream) }
        let start = (input.baseAddress! + Self.historySize + b * Self.blockSize).assumingMemoryBound(to: Bytef.self)
        deflateReset(stream)
        if history > 0 { deflateSetDictionary(stream, start - history, uInt(history)) }
        stream.pointee.next_in = start
        stream.pointee.avail_in = uInt(length)
        stream.pointee.next_out = (outputs.baseAddress! + b * Self.outputCapacity).assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(Self.outputCapacity)
        let status = deflate(stream, Z_SYNC_FLUSH)
        precondition(
            status == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0,
            "zlib deflate of a block failed: \(status)")
        return DeflatedBlock(
            size: Self.outputCapacity - Int(stream.pointee.avail_out),
            crc: crc32(0, start, uInt(length)), length: length)
    }

    /// What zlib writes for `GzipCompressor`: no name, mtime 0, no extra flags, OS Unix.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]

    /// An empty final block (fixed Huffman codes: the end-of-block code alone), then the
    /// CRC-32 and the length mod 2^32, little-endian.
    private static func trailer(crc: uLong, total: Int64) -> [UInt8] {
        let size = UInt32(truncatingIfNeeded: total)
        return [0x03, 0x00] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
    }
}

/// Raw-deflate states, reused from block to block: setting one up costs a few hundred
/// KiB of allocations. There are never more than the threads deflating at once.
private final class DeflaterPool {
    /// Guards `idle`.
    private let lock = Mutex(())
    private var idle = [UnsafeMutablePointer<z_stream>]()

    func take() -> UnsafeMutablePointer<z_stream> {
        // Handed out through a variable: a pointer cannot be a `Mutex` closure's (sending) result.
        var reused: UnsafeMutablePointer<z_stream>?
        lock.withLock { _ in reused = idle.popLast() }
        if let reused { return reused }
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
        lock.withLock { _ in idle.append(stream) }
    }

    deinit {
        for stream in idle {
            deflateEnd(stream)
            stream.deallocate()
        }
    }
}
