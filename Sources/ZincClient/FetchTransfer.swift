import Zinc
import ZincHTTP

/// One HTTP fetch of a catalog file, as every HTTP transport performs it: the transport
/// feeds it the response head and the body chunks as they arrive, and it checks the
/// server's promises (status, Content-Range, Content-Length) against what is sent,
/// writes exactly the wanted bytes to the sink and says when to stop. Transports differ
/// only in how bytes cross the wire, so they all honour `CatalogSource.fetch` alike.
/// Not thread-safe: a transport calling it from several threads serialises the calls.
package final class FetchTransfer {
    let url: String
    let range: Range<Int64>?
    let limit: Int64
    let sink: PosixFile
    /// The ETag to send as `If-None-Match`: only a whole file can be "not modified".
    package let validator: String?

    /// The head of the latest response; a redirect's head is replaced by the next one's.
    private var head = ResponseHead()
    /// Whether the final head passed `accept`; nil until the body starts or the transfer ends.
    private var accepted: Bool?
    private var announcedLength: Int64?
    /// Leading body bytes to drop: a server that ignores `Range` sends the file from byte 0.
    private var skip: Int64 = 0
    private var written: Int64 = 0
    private var received: Int64 = 0
    /// The range is complete and the rest of the body was cancelled on purpose.
    private var satisfied = false
    /// `receive` said stop: bytes a transport still hands over are not wanted.
    private var stopped = false
    private var failure: Error?

    package init(url: String, range: Range<Int64>?, etag: String?, limit: Int64, sink: PosixFile) {
        self.url = url
        self.range = range
        self.limit = limit
        self.sink = sink
        validator = range == nil ? etag : nil
    }

    /// `Range: bytes=a-b` for the range, nil for a whole file.
    package var rangeHeader: String? { range.map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" } }

    private var capacity: Int64 { range.map { $0.upperBound - $0.lowerBound } ?? limit }

    package func outcome() throws -> FetchResponse {
        if let failure { throw failure }
        if head.status == 304 { return FetchResponse(status: .notModified, etag: head["etag"], written: 0, received: 0) }
        if range == nil, let announcedLength, written < announcedLength {
            throw ClientError.truncated(url: url, received: written, expected: announcedLength)
        }
        return FetchResponse(status: .content, etag: head["etag"], written: written, received: received)
    }

    /// One line of a response head, as libcurl hands them over (with its line break).
    package func header(_ line: UnsafeRawBufferPointer) -> Bool {
        head.take(line)
        return true
    }

    /// The final response head, whole, as URLSession hands it over; false when its body
    /// is not wanted.
    package func respond(status: Int, fields: [String: String]) -> Bool {
        head = ResponseHead(status: status, fields: fields)
        accepted = accept()
        return accepted == true
    }

    /// Ends the transfer with `error` (a refused redirect, an encoding the transport cannot
    /// undo) before the body is looked at; `reason` says what went wrong.
    package func refuse(_ reason: String) {
        failure = failure ?? ClientError.transport(url: url, reason: reason, received: written)
        accepted = false
        stopped = true
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
            guard rangeHeader != nil, head.contentRangeStart == range?.lowerBound else {
                failure = ClientError.badResponse(
                    url: url,
                    reason: "answered 206 with Content-Range '\(contentRange)' to "
                        + "a request for \(rangeHeader ?? "the whole file")")
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
    package func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        guard !stopped else { return false }
        if accepted == nil { accepted = accept() }
        guard accepted == true else { return stop() }
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
                return stop()
            }
            chunk = chunk.prefix(Int(room))
        }
        do {
            try sink.write(UnsafeRawBufferPointer(rebasing: chunk))
        } catch {
            failure = error
            return stop()
        }
        written += Int64(chunk.count)
        if range != nil, written == capacity {
            satisfied = true
            return stop()
        }
        return true
    }

    private func stop() -> Bool {
        stopped = true
        return false
    }

    /// The transfer ended: `error` is the transport's message when it failed, which is
    /// moot when this side stopped it.
    package func complete(_ error: String?) {
        if let error {
            if failure == nil, !satisfied {
                failure = ClientError.transport(url: url, reason: error, received: written)
            }
        } else if accepted == nil {
            accepted = accept()  // a response without a body: 304, or an error status
        }
    }
}
