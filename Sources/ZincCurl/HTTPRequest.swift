#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP request as `HTTPClient` performs it.
package struct HTTPRequest: Sendable {
    package enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case put = "PUT"
        case post = "POST"
        case delete = "DELETE"
    }

    package var method: Method
    package var url: String
    /// Complete header lines (`Name: value`).
    package var headers: [String]
    /// Sent as `Range: bytes=a-b,c-d`; none: the whole resource.
    package var ranges: [Range<Int64>]
    package var body: RequestBody?
    /// Static hosts and CDNs may redirect; signed requests to an object store must not be.
    package var followRedirects: Bool
    /// The longest silence before the request fails, rounded up to whole seconds (libcurl
    /// checks once a second); nil: a minute.
    package var patience: Duration?
    /// Stops the request from another thread when fired.
    package var stop: TransferStop?

    package init(
        _ method: Method, _ url: String, headers: [String] = [], ranges: [Range<Int64>] = [],
        body: RequestBody? = nil, followRedirects: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.ranges = ranges
        self.body = body
        self.followRedirects = followRedirects
    }
}

/// A request body that can be sent again from its start (a retried request re-reads it).
package enum RequestBody: Sendable {
    case bytes([UInt8])
    /// `length` bytes of an open file from `offset`, read with `pread`, so several
    /// requests may send parts of one file at once.
    case file(descriptor: Int32, offset: Int64, length: Int64)

    package var length: Int64 {
        switch self {
        case .bytes(let bytes): return Int64(bytes.count)
        case .file(_, _, let length): return length
        }
    }

    /// Copies the body's bytes from `position` into `buffer`; nil on a read error.
    func read(at position: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let wanted = Int(min(Int64(buffer.count), length - position))
        guard wanted > 0 else { return 0 }
        switch self {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + Int(position), byteCount: wanted)
            }
            return wanted
        case .file(let descriptor, let offset, _):
            while true {
                let n = pread(descriptor, buffer.baseAddress, wanted, off_t(offset + position))
                if n < 0, errno == EINTR { continue }
                // A file shorter than promised would leave the server waiting: an error.
                return n > 0 ? n : nil
            }
        }
    }
}

/// Where a response goes: each header line (with its line break) and each body chunk,
/// in order. Either returns false to stop the transfer.
package struct HTTPReceiver {
    package typealias Chunk = (UnsafeRawBufferPointer) -> Bool

    let header: Chunk
    let body: Chunk

    package init(header: @escaping Chunk, body: @escaping Chunk) {
        self.header = header
        self.body = body
    }
}
