import CZlib

/// Inflates one chunk of a gzipped object written with chunk lists: raw deflate
/// blocks, with no history before them, ending in a flush (see `ChunkList`). The
/// inflater is reused from chunk to chunk.
public final class ChunkInflater {
    private var stream = z_stream()

    public init() {
        // Negative window bits: raw deflate, no gzip wrapper.
        let status = inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib inflateInit2 failed: \(status)")
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `stored` into `output`, which must come out exactly full: a chunk that
    /// inflates to more or fewer bytes, or is not deflate data, throws `Failure`.
    public func inflate(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        inflateReset(&stream)
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
    }
}
