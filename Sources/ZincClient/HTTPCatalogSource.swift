import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Zinc

/// A catalog on any static HTTP host or CDN. Bodies are streamed chunk by chunk into
/// the caller's file as they arrive, never collected in memory, and every promise the
/// server makes (status, Content-Range, Content-Length) is checked against what it sends.
public final class HTTPCatalogSource: CatalogSource, @unchecked Sendable {
    public let url: String
    private let base: URL
    private let session: URLSession
    private let delegate = TransferDelegate()

    init(url: String, base: URL) {
        self.url = url
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        // The repo is the cache: a URL cache would only keep second copies and answer 304s itself.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 60
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    public func fetch(_ path: String, range: Range<Int64>?, etag: String?, limit: Int64, into sink: PosixFile) throws -> FetchResponse {
        let location = url + (url.hasSuffix("/") ? "" : "/") + path
        let target = base.appendingPathComponent(path)
        var request = URLRequest(url: target)
        if let range {
            guard !range.isEmpty else { return FetchResponse(status: .content, etag: nil, written: 0, received: 0) }
            request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range")
        }
        if let etag, range == nil { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let transfer = Transfer(url: location, range: range, limit: limit, sink: sink)
        let task = session.dataTask(with: request)
        delegate.register(transfer, for: task.taskIdentifier)
        task.resume()
        transfer.done.wait()
        return try transfer.outcome()
    }
}

/// The state of one request, touched only on the session's serial delegate queue until
/// `done` is signalled, and only by the caller afterwards.
private final class Transfer: @unchecked Sendable {
    let url: String
    let range: Range<Int64>?
    let limit: Int64
    let sink: PosixFile
    let done = DispatchSemaphore(value: 0)

    var status = 0
    var etag: String?
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
        if status == 304 { return FetchResponse(status: .notModified, etag: etag, written: 0, received: 0) }
        if range == nil, let announcedLength, written < announcedLength {
            throw ClientError.truncated(url: url, received: written, expected: announcedLength)
        }
        return FetchResponse(status: .content, etag: etag, written: written, received: received)
    }

    /// Checks the response head; returns false when the body is not wanted.
    func accept(_ response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        status = http?.statusCode ?? 0
        etag = http?.value(forHTTPHeaderField: "ETag")
        let length = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        switch status {
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
            let contentRange = http?.value(forHTTPHeaderField: "Content-Range") ?? ""
            guard let range, Self.start(ofContentRange: contentRange) == range.lowerBound else {
                failure = ClientError.badResponse(url: url, reason: "answered 206 with Content-Range '\(contentRange)' to "
                                                  + "a request for \(range.map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" } ?? "the whole file")")
                return false
            }
            return true
        case 404, 410:
            failure = ClientError.notFound(url: url)
            return false
        default:
            failure = ClientError.httpStatus(url: url, status: status)
            return false
        }
    }

    /// Returns false once nothing more of the body is wanted.
    func receive(_ data: Data) -> Bool {
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
            try chunk.withUnsafeBytes { try sink.write($0) }
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

    func complete(_ error: Error?) {
        if let error, failure == nil, !satisfied {
            failure = ClientError.transport(url: url, reason: error.localizedDescription, received: written)
        }
        done.signal()
    }

    /// The first byte of `bytes a-b/total`.
    static func start(ofContentRange header: String) -> Int64? {
        guard header.hasPrefix("bytes ") else { return nil }
        return Int64(header.dropFirst(6).prefix { $0 != "-" })
    }
}

private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers = [Int: Transfer]()

    func register(_ transfer: Transfer, for task: Int) {
        lock.withLock { transfers[task] = transfer }
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.withLock { transfers[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask), transfer.accept(response) else {
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask), transfer.failure == nil, !transfer.satisfied else { return }
        if !transfer.receive(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = lock.withLock { transfers.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error)
    }
}
