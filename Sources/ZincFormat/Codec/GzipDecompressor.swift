import CZlib

/// Streaming gunzip of exactly one gzip member. Existing clients inflate only the first
/// member, so anything after it is reported as damage rather than silently ignored.
package final class GzipDecompressor {
    private var stream = z_stream()
    private let output: UnsafeMutablePointer<UInt8>
    private let outputSize = 1 << 18
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    package private(set) var finished = false

    /// Why a gzip stream could not be decompressed.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case corrupt(String)
        case trailingData
        case truncated
        case tooLarge(limit: Int)

        /// What is wrong, in words fit to follow `<path>: ` (an error message never shows
        /// the enum).
        package var description: String {
            switch self {
            case .corrupt(let message): "not a valid gzip stream (\(message))"
            case .trailingData: "holds data after its gzip stream (clients inflate only the first member)"
            case .truncated: "its gzip stream is truncated"
            case .tooLarge(let limit): "unpacks to more than \(limit) bytes"
            }
        }
    }

    package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        output = .allocate(capacity: outputSize)
        let status = inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib inflateInit2 failed: \(status)")
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Decompresses `bytes`, passing the output to the sink; refuses data after the end
    /// of the stream.
    package func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        if finished { throw Failure.trailingData }
        stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(bytes.count)
        while stream.avail_in > 0 || stream.avail_out == 0 {
            stream.next_out = output
            stream.avail_out = UInt32(outputSize)
            let status = inflate(&stream, Z_NO_FLUSH)
            let produced = outputSize - Int(stream.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(start: output, count: produced)) }
            switch status {
            case Z_STREAM_END:
                finished = true
                if stream.avail_in > 0 { throw Failure.trailingData }
                return
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                if stream.avail_in == 0 { return }
                continue
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "inflate error \(status)"
                throw Failure.corrupt(message)
            }
        }
    }

    /// Call after the last `update`: a stream that never reached its end is truncated.
    package func finish() throws {
        if !finished { throw Failure.truncated }
    }

    /// The whole content of a small gzip file, refused (`tooLarge`) past `limit` bytes.
    package static func decompress(_ bytes: [UInt8], limit: Int = .max) throws -> [UInt8] {
        var out = [UInt8]()
        let decompressor = GzipDecompressor { piece in
            guard piece.count <= limit - out.count else { throw Failure.tooLarge(limit: limit) }
            out.append(contentsOf: piece)
        }
        try bytes.withUnsafeBytes { try decompressor.update($0) }
        try decompressor.finish()
        return out
    }
}
