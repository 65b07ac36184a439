import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's delegate: hands each task's callbacks to its `Exchange`. Unchecked
/// Sendable only because `NSObject` is not; its one stored property is a `Mutex`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Mutex([Int: Exchange]())

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(exchange(dataTask)?.respond(response) == true ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(dataTask)?.receive(data) != true { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // FoundationNetworking turns a Location of another scheme into a path on the same
        // host: judge the Location as sent.
        let target = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: response.url) }
        guard exchange(task)?.follows(target?.absoluteURL ?? request.url) == true else {
            // Not followed, the redirect arrives as the final response, which the exchange
            // refuses. (Cancelling the task here makes FoundationNetworking trap.)
            return completionHandler(nil)
        }
        // The redirected request asks for the same bytes: same range, same validator.
        var next = request
        for (name, value) in task.originalRequest?.allHTTPHeaderFields ?? [:] where next.value(forHTTPHeaderField: name) == nil {
            next.setValue(value, forHTTPHeaderField: name)
        }
        completionHandler(next)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error)
    }
}
