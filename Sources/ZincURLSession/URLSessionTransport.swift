import Foundation
import ZincClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's HTTP through `URLSession` (Foundation on Apple systems,
/// FoundationNetworking on Linux), for apps that embed `ZincClient` and want the
/// system's networking: its proxy settings, TLS trust and connection pool. One
/// transport holds one session, shared by every source it makes, so a sync reuses the
/// connections of the last one. Pass `sourceFactory` wherever `SyncOptions` takes one:
///
///     let transport = URLSessionTransport()
///     let options = SyncOptions(sourceFactory: transport.sourceFactory)
///     try await repo.track(url: catalogURL, bundle: "Lessons", options: options)
///     let report = try await repo.sync(options: options)
public final class URLSessionTransport: Sendable {
    private let session: URLSession
    private let delegate = SessionDelegate()

    /// What the transport uses unless told otherwise: no URL cache (the repo keeps its
    /// own validators, and a cache would answer 304s itself) and the libcurl transport's
    /// idle timeout, a minute without a byte.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        return configuration
    }

    /// - Parameter configuration: copied; its `urlCache` and `requestCachePolicy` are
    ///   overridden so that every fetch reaches the server (the repo's ETags decide what
    ///   is fresh). Timeouts, proxies, headers and TLS settings are kept.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? Self.defaultConfiguration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        // Delegate callbacks one at a time: each fetch's chunks reach its sink in order.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // A session keeps its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// The source for a tracked URL: `http(s)://` through this transport, `file://` from
    /// the folder. Use it as `SyncOptions.sourceFactory`.
    public var sourceFactory: @Sendable (String) throws -> CatalogSource {
        { [self] url in try makeCatalogSource(url) { URLSessionCatalogSource(url: $0, base: $1, transport: self) } }
    }

    /// Performs `request`, feeding its response to `transfer`, and returns when it has
    /// ended: suspended meanwhile, holding no thread, since the session calls back on its
    /// own queue. A cancelled sync cancels the task, which ends the wait at once (and
    /// throws `CancellationError`).
    func perform(_ request: URLRequest, into transfer: FetchTransfer, cancellation: SyncCancellation?) async throws {
        let task = session.dataTask(with: request)
        let run = { [delegate] in
            await withCheckedContinuation { continuation in
                delegate.register(Exchange(transfer) { continuation.resume() }, for: task)
                task.resume()
            }
        }
        guard let cancellation else { return await run() }
        try await cancellation.whileRunning(onCancel: { task.cancel() }, run)
        try cancellation.check()
    }

    /// The same for the blocking `CatalogSource.fetch`: the calling thread waits for the
    /// completion the delegate signals.
    func perform(_ request: URLRequest, into transfer: FetchTransfer, cancellation: SyncCancellation?) throws {
        let ended = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request)
        let run = { [delegate] in
            delegate.register(Exchange(transfer) { ended.signal() }, for: task)
            task.resume()
            ended.wait()
        }
        guard let cancellation else { return run() }
        try cancellation.whileRunning(onCancel: { task.cancel() }, run)
        try cancellation.check()
    }
}
