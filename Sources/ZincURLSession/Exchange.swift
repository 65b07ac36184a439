import Foundation
import Synchronization
import ZincClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch in flight: the transfer the session's callbacks feed, and what tells its
/// caller it ended. The callbacks run on the session's queue while the caller waits
/// (blocked on a semaphore, or suspended on a continuation, which `ended` signals or
/// resumes), then the caller reads the transfer's outcome: every touch of the transfer
/// until then holds `lock`, and `ended` orders the last one before the caller's read.
final class Exchange: @unchecked Sendable {
    private let lock = Mutex(())
    private let transfer: FetchTransfer
    private let ended: @Sendable () -> Void

    init(_ transfer: FetchTransfer, ended: @escaping @Sendable () -> Void) {
        self.transfer = transfer
        self.ended = ended
    }

    /// The final response's head; false when its body is not wanted.
    func respond(_ response: URLResponse) -> Bool {
        lock.withLock { _ in
            guard let response = response as? HTTPURLResponse else {
                transfer.refuse("the answer is not an HTTP response")
                return false
            }
            var fields = [String: String]()
            for case (let name as String, let value as String) in response.allHeaderFields { fields[name.lowercased()] = value }
            // URLSession undoes a Content-Encoding whatever the request asked for, so the
            // bytes would not be the stored file's (nor its ranges). Another source may
            // serve it as stored; libcurl does.
            if let encoding = fields["content-encoding"], encoding.lowercased() != "identity" {
                transfer.refuse(
                    "the server sent Content-Encoding '\(encoding)' to a request for identity, "
                        + "which URLSession would decode: the stored bytes cannot be had through it")
                return false
            }
            // A redirect URLSession did not follow arrives as the final response.
            if (300..<400).contains(response.statusCode), response.statusCode != 304, let location = fields["location"] {
                refuseRedirect(to: location)
                return false
            }
            return transfer.respond(status: response.statusCode, fields: fields)
        }
    }

    func receive(_ data: Data) -> Bool {
        lock.withLock { _ in data.withUnsafeBytes { transfer.receive($0) } }
    }

    /// Whether to follow a redirect to `url`: only to http and https, like libcurl, so a
    /// server cannot make the client read a local file into the repo.
    func follows(_ url: URL?) -> Bool {
        let scheme = url?.scheme?.lowercased() ?? ""
        guard scheme != "http", scheme != "https" else { return true }
        lock.withLock { _ in refuseRedirect(to: url?.absoluteString ?? "") }
        return false
    }

    private func refuseRedirect(to location: String) {
        let scheme = URL(string: location)?.scheme ?? ""
        transfer.refuse("redirected to '\(location)', a \"\(scheme)\" URL: only http and https redirects are followed")
    }

    /// The task ended, with `error` when it failed (or was cancelled by this side).
    func complete(_ error: Error?) {
        lock.withLock { _ in transfer.complete(error.map(Self.describe)) }
        ended()
    }

    /// A message for a failed task: what happened, and URLSession's code for searches.
    private static func describe(_ error: Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        let what: String
        switch error.code {
        case .timedOut: what = "timed out"
        case .cannotConnectToHost: what = "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: what = "the host name could not be resolved"
        case .networkConnectionLost: what = "the connection was lost"
        case .notConnectedToInternet: what = "not connected to the internet"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            what = "the TLS connection failed"
        case .httpTooManyRedirects: what = "too many redirects"
        default: what = error.localizedDescription
        }
        return "\(what) (URLError \(error.code.rawValue))"
    }
}
