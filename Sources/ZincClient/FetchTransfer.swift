import Zinc
import ZincHTTP

/// One HTTP fetch of a catalog file, as every HTTP transport performs it: the transport
/// feeds it the response head and the body chunks as they arrive, and it checks the
/// server's promises (status, Content-Range, Content-Length, multipart parts) against
/// what is sent, writes exactly the wanted bytes to the sink and says when to stop.
/// Transports differ only in how bytes cross the wire, so they all honour
/// `CatalogSource.fetch` alike. Not thread-safe: a transport calling it from several
/// threads serialises the calls.
package final class FetchTransfer {
    let url: String
    let request: FetchRequest
    let sink: FetchSink

    /// The head of the latest response; a redirect's head is replaced by the next one's.
    private var head = ResponseHead()
    /// Whether the final head passed `accept`; nil until the body starts or the transfer ends.
    private var accepted: Bool?
    private var announcedLength: Int64?
    /// Where the wanted ranges' bytes go; nil for a whole file.
    private var wanted: WantedRanges?
    /// How the body carries the file's bytes, decided by `accept`.
    private var body = Body.file(position: 0)
    private var rangeAnswer: FetchResponse.RangeAnswer?
    private var written: Int64 = 0
    private var received: Int64 = 0
    /// The rest of the body was cancelled on purpose: the ranges are complete, or the
    /// server skipped one (the caller asks again for what is missing).
    private var satisfied = false
    /// `receive` said stop: bytes a transport still hands over are not wanted.
    private var stopped = false
    /// Once the wanted ranges are complete, how many more bytes of the answer are read and
    /// dropped before the transfer is cut; nil until then.
    private var drainLeft: Int64?
    private var failure: Error?
    private let started = ContinuousClock.now
    private var firstByte: Duration?

    private enum Body {
        /// The file's bytes from `position` on (a 200, or a 206 with one range).
        case file(position: Int64)
        /// `multipart/byteranges`; `position` is where the current part's next byte belongs.
        case parts(MultipartByteranges, position: Int64?)
        /// An error status's explanation (S3's XML `Error`), kept up to `errorTextLimit`
        /// bytes for the source to word the failure with.
        case errorText
    }

    /// How much of an error status's body is kept (S3's errors take a few hundred bytes).
    static let errorTextLimit = 4096

    /// The start of the body of an answer with an error status; empty for any other.
    package private(set) var errorText = [UInt8]()
    /// The final answer's head, for a source wording an error status with `errorText`.
    package var responseHead: ResponseHead { head }

    package init(url: String, request: FetchRequest, sink: FetchSink) {
        self.url = url
        self.request = request
        self.sink = sink
        wanted = request.ranges.isEmpty ? nil : WantedRanges(request.ranges)
    }

    /// The `Range` header to send; nil for a whole file.
    package var rangeHeader: String? { request.rangeHeader }

    /// The ETag to send as `If-None-Match`: only a whole file can be "not modified".
    package var validator: String? { wanted == nil ? request.etag : nil }

    package func outcome() throws -> FetchResponse {
        if let failure { throw failure }
        if head.status == 304 {
            return FetchResponse(status: .notModified, etag: head["etag"], written: 0, received: 0, timeToFirstByte: firstByte)
        }
        if wanted == nil, let announcedLength, written < announcedLength {
            throw ClientError.truncated(url: url, received: written, expected: announcedLength)
        }
        return FetchResponse(
            status: .content, etag: head["etag"], written: written, received: received, rangeAnswer: rangeAnswer,
            timeToFirstByte: firstByte)
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
        firstByte = ContinuousClock.now - started
        let length = head.contentLength
        switch head.status {
        case 304 where wanted == nil:
            return true
        case 200:
            if let wanted {
                rangeAnswer = .wholeFile
                guard wanted.unwantedBeforeEnd <= request.ignoredRangeAllowance else {
                    failure = ClientError.rangeIgnored(url: url, ranges: rangeHeader ?? "")
                    return false
                }
            } else if let length, length > request.limit {
                failure = ClientError.tooLarge(url: url, limit: request.limit)
                return false
            }
            announcedLength = length
            body = .file(position: 0)
            return true
        case 206:
            return acceptPartial()
        case 404, 410:
            failure = ClientError.notFound(url: url)
            return false
        default:
            failure = ClientError.httpStatus(url: url, status: head.status)
            guard head.status >= 400 else { return false }
            body = .errorText
            return true
        }
    }

    /// A 206 must answer ranges that were asked for: one range starting no later than the
    /// first wanted byte, or parts of a `multipart/byteranges` body.
    private func acceptPartial() -> Bool {
        let asked = rangeHeader ?? "the whole file"
        guard let wanted else {
            failure = ClientError.badResponse(url: url, reason: "answered 206 to a request for the whole file")
            return false
        }
        if let contentType = head["content-type"], let parts = MultipartByteranges(contentType: contentType) {
            rangeAnswer = .multipart
            body = .parts(parts, position: nil)
            return true
        }
        let field = head["content-range"] ?? ""
        guard let range = ContentRange(field), let first = wanted.next, range.bytes.contains(first) else {
            failure = ClientError.badResponse(url: url, reason: "answered 206 with Content-Range '\(field)' to a request for \(asked)")
            return false
        }
        rangeAnswer = .singlePart
        body = .file(position: range.bytes.lowerBound)
        return true
    }

    /// Returns false once nothing more of the body is wanted.
    package func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        guard !stopped else { return false }
        if accepted == nil { accepted = accept() }
        guard accepted == true else { return stop() }
        received += Int64(data.count)
        if let left = drainLeft {
            drainLeft = left - Int64(data.count)
            return left >= Int64(data.count) ? true : stop()
        }
        do {
            switch body {
            case .file(let position):
                body = .file(position: position + Int64(data.count))
                return try place(data, at: position)
            case .errorText:
                let kept = min(data.count, Self.errorTextLimit - errorText.count)
                errorText.append(contentsOf: data.prefix(kept))
                return kept == data.count ? true : stop()
            case .parts(var parts, var position):
                defer { body = .parts(parts, position: position) }
                return try parts.read(data) { event in
                    switch event {
                    case .part(let range):
                        position = range.bytes.lowerBound
                        return true
                    case .data(let bytes):
                        guard let at = position else { return false }
                        position = at + Int64(bytes.count)
                        return try place(bytes, at: at)
                    }
                }
            }
        } catch let malformed as MultipartByteranges.Malformed {
            failure = ClientError.badResponse(url: url, reason: "malformed multipart/byteranges answer: \(malformed.reason)")
        } catch {
            failure = error
        }
        return stop()
    }

    /// Writes the wanted bytes of `data`, the file's bytes from `position`; false when the
    /// transfer should stop.
    private func place(_ data: UnsafeRawBufferPointer, at position: Int64) throws -> Bool {
        guard var wanted else {
            // A whole file, up to the limit.
            guard Int64(data.count) <= request.limit - written else {
                failure = ClientError.tooLarge(url: url, limit: request.limit)
                return stop()
            }
            try sink.write(data)
            written += Int64(data.count)
            return true
        }
        guard drainLeft == nil else { return true }
        defer { self.wanted = wanted }
        let progress = try wanted.take(data, at: position) { try sink.write($0) }
        written = wanted.placed
        switch progress {
        case .wantsMore:
            return true
        case .complete:
            satisfied = true
            return drainRest()
        case .gap:
            satisfied = true
            return stop()
        }
    }

    /// A complete answer's bytes past the wanted ones (a multipart answer's closing
    /// boundary, a whole file's tail) up to this many are read and dropped rather than
    /// the transfer cut: a cut closes the connection, and the next request would pay a
    /// new connection's round trip for it.
    static let drainAllowance: Int64 = 64 << 10

    /// The wanted ranges are complete: reads the rest of the answer when it is short (or
    /// of unknown length, up to `drainAllowance`), else stops.
    private func drainRest() -> Bool {
        let rest = head.contentLength.map { $0 - received } ?? Self.drainAllowance
        guard rest <= Self.drainAllowance else { return stop() }
        drainLeft = max(0, rest)
        return true
    }

    private func stop() -> Bool {
        stopped = true
        return false
    }

    /// Runs the transport's `exchange` (which feeds this transfer one response and returns
    /// the transport's message when it failed), with `stop` registered to end it if the
    /// request's sync is cancelled meanwhile (`CancellationError` then), and gives the outcome.
    package func perform(stop: @escaping @Sendable () -> Void, stopped: () -> Bool, _ exchange: () throws -> String?) throws
        -> FetchResponse
    {
        if let cancellation = request.cancellation {
            try cancellation.whileRunning(onCancel: stop) { complete(try exchange()) }
        } else {
            complete(try exchange())
        }
        if stopped() { throw CancellationError() }
        return try outcome()
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
