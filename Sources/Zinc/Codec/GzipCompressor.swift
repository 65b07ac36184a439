import CZlib

/// Streaming gzip (deflate with a gzip header) through zlib. The header carries no
/// name and mtime 0, so the same input always gives the same bytes: archives and
/// manifests must be reproducible.
package final class GzipCompressor {
    private var stream = z_stream()
    private let output: UnsafeMutablePointer<UInt8>
    private let outputSize = 1 << 18
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    package private(set) var bytesOut: Int64 = 0

    /// zlib's default: within a few percent of level 9's size for asset data at a
    /// fraction of the time.
    package static let defaultLevel: Int32 = 6

    package init(level: Int32 = defaultLevel, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        output = .allocate(capacity: outputSize)
        // windowBits 15 + 16 selects the gzip wrapper.
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
    }

    deinit {
        deflateEnd(&stream)
        output.deallocate()
    }

    /// Compresses `bytes`, passing any output to the sink.
    package func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        try run(bytes, flush: Z_NO_FLUSH)
    }

    /// Ends the gzip stream, passing the rest of the output and the trailer to the sink.
    package func finish() throws {
        try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
    }

    private func run(_ bytes: UnsafeRawBufferPointer, flush: Int32) throws {
        stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(bytes.count)
        repeat {
            stream.next_out = output
            stream.avail_out = UInt32(outputSize)
            let status = deflate(&stream, flush)
            precondition(status != Z_STREAM_ERROR, "zlib deflate state corrupted")
            let produced = outputSize - Int(stream.avail_out)
            if produced > 0 {
                bytesOut += Int64(produced)
                try sink(UnsafeRawBufferPointer(start: output, count: produced))
            }
            if flush == Z_FINISH && status == Z_STREAM_END { return }
        } while stream.avail_out == 0 || (flush == Z_FINISH)
    }

    /// Gzips a small in-memory value (manifests, index files).
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        let compressor = GzipCompressor { out.append(contentsOf: $0) }
        try! bytes.withUnsafeBytes { try compressor.update($0) }
        try! compressor.finish()
        return out
    }
}
