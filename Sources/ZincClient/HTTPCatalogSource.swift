#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zinc
import ZincHTTP

/// A catalog on any static HTTP host or CDN, fetched with libcurl. Bodies are streamed
/// chunk by chunk into the caller's file as they arrive, never collected in memory, and
/// every promise the server makes (status, Content-Range, Content-Length) is checked
/// against what it sends.
public final class HTTPCatalogSource: CatalogSource, @unchecked Sendable {
    public let url: String
    private let base: URL
    /// Kept for the source's life, so that fetches reuse the server's connection.
    private let client = HTTPClient()

    init(url: String, base: URL) {
        self.url = url
        self.base = base
    }

    public func fetch(_ path: String, range: Range<Int64>?, etag: String?, limit: Int64, into sink: PosixFile) throws -> FetchResponse {
        let location = url + (url.hasSuffix("/") ? "" : "/") + path
        if let range, range.isEmpty { return FetchResponse(status: .content, etag: nil, written: 0, received: 0) }
        let transfer = Transfer(url: location, range: range, limit: limit, sink: sink)
        var headers = [String]()
        if let etag, range == nil { headers.append("If-None-Match: \(etag)") }
        do {
            // No Accept-Encoding: catalog files go over the wire as stored, so byte
            // ranges of archives mean what they say.
            let request = HTTPRequest(.get, base.appendingPathComponent(path).absoluteString, headers: headers, range: range)
            transfer.complete(try client.perform(request, receiver: HTTPReceiver(header: transfer.header, body: transfer.receive)))
        } catch {
            throw ClientError.transport(url: location, reason: error.reason, received: 0)
        }
        return try transfer.outcome()
    }
}

/// The state of one request, touched only by the thread performing it.
private final class Transfer {
    let url: String
    let range: Range<Int64>?
    let limit: Int64
    let sink: PosixFile

    /// The head of the latest response; a redirect's head is replaced by the next one's.
    private var head = ResponseHead()
    /// Whether the final head passed `accept`; nil until the body starts or the transfer ends.
    private var accepted: Bool?
    var announcedLength: Int64?
    /// Leading body bytes to drop: a server that ignores `Range` sends the file from byte 0.
    var skip: Int64 = 0
    var written: Int64 = 0
    var received: Int64 = 0
    /// The range is complete and the rest of the body was cancelled on purpose.
    var satisfied = false
    var failure: Error?

    init(url: String, range: Range<Int64>?, limit: Int64, sink: PosixFile) {
        self.url = url
        self.range = range
        self.limit = limit
        self.sink = sink
    }

    var capacity: Int64 { range.map { $0.upperBound - $0.lowerBound } ?? limit }

    func outcome() throws -> FetchResponse {
        if let failure { throw failure }
        if head.status == 304 { return FetchResponse(status: .notModified, etag: head["etag"], written: 0, received: 0) }
        if range == nil, let announcedLength, written < announcedLength {
            throw ClientError.truncated(url: url, received: written, expected: announcedLength)
        }
        return FetchResponse(status: .content, etag: head["etag"], written: written, received: received)
    }

    /// One line of a response head, as libcurl hands them over (with its line break).
    func header(_ line: UnsafeRawBufferPointer) -> Bool {
        head.take(line)
        return true
    }

    /// Checks the final response head; returns false when the body is not wanted.
    private func accept() -> Bool {
        let length = head.contentLength
        switch head.status {
        case 304 where range == nil:
            return true
        case 200:
            skip = range?.lowerBound ?? 0
            if range == nil, let length, length > limit {
                failure = ClientError.tooLarge(url: url, limit: limit)
                return false
            }
            announcedLength = length
            return true
        case 206:
            let contentRange = head["content-range"] ?? ""
            guard let range, head.contentRangeStart == range.lowerBound else {
                failure = ClientError.badResponse(url: url, reason: "answered 206 with Content-Range '\(contentRange)' to "
                                                  + "a request for \(range.map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" } ?? "the whole file")")
                return false
            }
            return true
        case 404, 410:
            failure = ClientError.notFound(url: url)
            return false
        default:
            failure = ClientError.httpStatus(url: url, status: head.status)
            return false
        }
    }

    /// Returns false once nothing more of the body is wanted.
    func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        if accepted == nil { accepted = accept() }
        guard accepted == true else { return false }
        received += Int64(data.count)
        var chunk = data[...]
        if skip > 0 {
            let dropped = min(Int64(chunk.count), skip)
            chunk = chunk.dropFirst(Int(dropped))
            skip -= dropped
        }
        let room = capacity - written
        if Int64(chunk.count) > room {
            guard range != nil else {
                failure = ClientError.tooLarge(url: url, limit: limit)
                return false
            }
            chunk = chunk.prefix(Int(room))
        }
        do {
            try sink.write(UnsafeRawBufferPointer(rebasing: chunk))
        } catch {
            failure = error
            return false
        }
        written += Int64(chunk.count)
        if range != nil, written == capacity {
            satisfied = true
            return false
        }
        return true
    }

    /// The transfer ended: `error` is libcurl's message when it failed, which is moot
    /// when this side stopped it.
    func complete(_ error: String?) {
        if let error {
            if failure == nil, !satisfied {
                failure = ClientError.transport(url: url, reason: error, received: written)
            }
        } else if accepted == nil {
            _ = accept()  // a response without a body: 304, or an error status
        }
    }
}
