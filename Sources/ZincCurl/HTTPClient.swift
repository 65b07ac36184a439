import CLibCurl
import Synchronization
import ZincHTTP

/// Performs HTTP requests through libcurl from any number of threads at once. Each
/// request borrows an idle handle (or a new one), so concurrent requests each get their
/// own kept-alive connection and sequential ones reuse it. libcurl is loaded by the
/// first request, never by a process that makes none.
///
/// Unchecked: `idle` holds libcurl handles, which are not `Sendable`; it is touched only
/// under `lock`, and a handle taken from it serves one request on one thread at a time.
package final class HTTPClient: @unchecked Sendable {
    /// Guards `idle`.
    private let lock = Mutex(())
    private var idle = [CurlHandle]()

    package init() {}

    /// Performs one request; nil on success, otherwise libcurl's message.
    package func perform(_ request: HTTPRequest, receiver: HTTPReceiver) throws(CurlError) -> String? {
        let handle = try borrow()
        defer { lock.withLock { _ in idle.append(handle) } }
        return try handle.perform(request, receiver: receiver)
    }

    /// Performs one request and collects its head and a body of at most `limit` bytes
    /// (small answers: XML, JSON). A longer body fails the transfer.
    package func collect(_ request: HTTPRequest, limit: Int) throws(CurlError) -> CollectedResponse {
        var head = ResponseHead()
        var body = [UInt8]()
        var overflow = false
        let failure = try perform(
            request,
            receiver: HTTPReceiver(
                header: {
                    head.take($0); return true
                },
                body: { chunk in
                    guard body.count + chunk.count <= limit else { overflow = true; return false }
                    body.append(contentsOf: chunk)
                    return true
                }))
        if overflow { return CollectedResponse(head: head, body: body, failure: "the answer is longer than \(limit) bytes") }
        return CollectedResponse(head: head, body: body, failure: failure)
    }

    /// Loads libcurl now rather than at the first request; a request made meanwhile (on
    /// another thread) waits for the same load.
    package static func load() {
        _ = zinc_curl_load()
    }

    private func borrow() throws(CurlError) -> CurlHandle {
        if let handle = lock.withLock({ _ in idle.popLast() }) { return handle }
        return try CurlHandle()
    }
}

/// A whole small response, or why the transfer failed.
package struct CollectedResponse: Sendable {
    package let head: ResponseHead
    package let body: [UInt8]
    /// libcurl's message when the transfer did not complete; `head` and `body` then hold
    /// whatever arrived.
    package let failure: String?
}
