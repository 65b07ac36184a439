import CZlib

/// Inflates the chunks of a gzipped object written with chunk lists, in the object's
/// order: raw deflate blocks ending in a flush, each given as its preset dictionary the
/// content before it, up to the layout's `ObjectChunks.history` bytes (none for a list of
/// format 1). So every chunk's content passes through it, those placed from elsewhere
/// too (`follow`). The inflater is reused from chunk to chunk.
package final class ChunkInflater {
    private var stream = z_stream()
    private let historySize: Int
    /// The last `historySize` bytes of content before the next chunk.
    private var history = [UInt8]()

    package init(history: Int = 0) {
        historySize = history
        // Negative window bits: raw deflate, no gzip wrapper.
        let status = inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib inflateInit2 failed: \(status)")
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `stored` into `output`, which must come out exactly full: a chunk that
    /// inflates to more or fewer bytes, or is not deflate data, throws `Failure`. The
    /// output is then the content before the next chunk.
    package func inflate(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        inflateReset(&stream)
        if !history.isEmpty {
            let status = history.withUnsafeBufferPointer { inflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
            guard status == Z_OK else { throw GzipDecompressor.Failure.corrupt("zlib refused the chunk's history (\(status))") }
        }
        guard let input = stored.baseAddress, let out = output.baseAddress else { throw GzipDecompressor.Failure.truncated }
        stream.next_in = UnsafeMutablePointer(mutating: input.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = uInt(stored.count)
        stream.next_out = out.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = uInt(output.count)
        let status = CZlib.inflate(&stream, Z_SYNC_FLUSH)
        switch status {
        case Z_OK, Z_BUF_ERROR, Z_STREAM_END:
            guard stream.avail_out == 0, stream.avail_in == 0 else {
                throw GzipDecompressor.Failure.corrupt(
                    stream.avail_out > 0 ? "the chunk inflates to fewer bytes than listed" : "the chunk inflates to more bytes than listed")
            }
        default:
            throw GzipDecompressor.Failure.corrupt(stream.msg.map { String(cString: $0) } ?? "inflate error \(status)")
        }
        follow(UnsafeRawBufferPointer(output))
    }

    /// Takes `content`, a chunk placed without inflating it (one the client holds), as
    /// the content before the next chunk.
    package func follow(_ content: UnsafeRawBufferPointer) {
        guard historySize > 0 else { return }
        history.append(contentsOf: content.suffix(historySize))
        if history.count > historySize { history.removeFirst(history.count - historySize) }
    }
}
