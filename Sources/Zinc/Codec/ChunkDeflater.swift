import CZlib

/// Gzip of a stream cut at its content-defined chunks as it passes (one core, memory
/// for one chunk and its history): the layout gzipped objects with chunk lists have
/// (`BlockGzipCompressor`), each chunk deflated with the 32 KiB of content before it as
/// preset dictionary and ended by a sync flush, the whole one ordinary gzip member. What
/// manifests are written as, so that a client holding an earlier version's manifest
/// fetches only the chunks it lacks (`ManifestChunks`).
final class ChunkDeflater {
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var chunker: ContentChunker
    private let deflaters = DeflaterPool()
    /// The history before the chunk being gathered (`historyLength` bytes), then the chunk.
    private let content: UnsafeMutablePointer<Bytef>
    private let output: UnsafeMutablePointer<Bytef>
    private var historyLength = 0
    private var chunkLength = 0
    private var crc = crc32(0, nil, 0)
    private var total: Int64 = 0
    /// Each chunk as written, in order.
    private(set) var chunks = [StoredChunk]()

    init(_ scheme: ChunkingScheme, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        self.sink = sink
        chunker = ContentChunker(scheme)
        content = .allocate(capacity: BlockGzipCompressor.historySize + scheme.maximumSize)
        output = .allocate(capacity: BlockGzipCompressor.outputBound(scheme.maximumSize))
        try BlockGzipCompressor.header.withUnsafeBytes { try sink($0) }
    }

    deinit {
        content.deallocate()
        output.deallocate()
    }

    /// Takes the next bytes of the stream, writing every chunk they end.
    func update(_ bytes: UnsafeRawBufferPointer) throws {
        var start = 0
        try chunker.scan(bytes) { end in
            gather(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            try writeChunk()
            start = end
        }
        gather(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    /// Writes the last chunk, the empty final block and the trailer.
    func finish() throws {
        if chunkLength > 0 { try writeChunk() }
        try BlockGzipCompressor.trailer(crc: crc, total: total).withUnsafeBytes { try sink($0) }
    }

    /// Never more than the chunker's longest chunk: it cuts there.
    private func gather(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        (content + historyLength + chunkLength).update(from: base.assumingMemoryBound(to: Bytef.self), count: bytes.count)
        chunkLength += bytes.count
    }

    private func writeChunk() throws {
        let start = content + historyLength
        let stream = deflaters.take()
        defer { deflaters.put(stream) }
        let size = BlockGzipCompressor.deflateFlushed(
            start, length: chunkLength, history: historyLength, into: output, stream: stream)
        try sink(UnsafeRawBufferPointer(start: output, count: size))
        let chunk = UnsafeRawBufferPointer(start: start, count: chunkLength)
        chunks.append(StoredChunk(ContentChunk(length: chunkLength, hash: ChunkHash(of: chunk)), storedLength: size))
        crc = crc32(crc, start, uInt(chunkLength))
        total += Int64(chunkLength)
        // The last 32 KiB of content, the next chunk's history, to the front.
        let kept = min(BlockGzipCompressor.historySize, historyLength + chunkLength)
        UnsafeMutableRawPointer(content).copyMemory(from: start + chunkLength - kept, byteCount: kept)
        historyLength = kept
        chunkLength = 0
    }
}
