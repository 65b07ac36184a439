import Synchronization

/// Stops a sync from another thread or task. `cancel()` marks it and runs what each
/// request in flight registered to stop at once (waking libcurl's wait, cancelling a
/// URLSession task); the sync's loops check the mark between steps and throw
/// `CancellationError`. What a cancelled sync leaves is what a killed one leaves: the
/// previous version in use, and every verified object and partial download for the next
/// sync to resume from.
public final class SyncCancellation: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Marks the sync cancelled and stops the requests in flight. Idempotent.
    public func cancel() {
        let handlers = state.withLock { state in
            guard !state.cancelled else { return [@Sendable () -> Void]() }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Throws `CancellationError` once cancelled.
    package func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` with `onCancel` registered to be called (once, on the cancelling
    /// thread) if the sync is cancelled meanwhile; throws `CancellationError` without
    /// running it if the sync is cancelled already.
    package func whileRunning<T>(onCancel: @escaping @Sendable () -> Void, _ body: () throws -> T) throws -> T {
        let key = try register(onCancel)
        defer { unregister(key) }
        return try body()
    }

    /// The same for an async `body` (a request whose answer is awaited).
    package func whileRunning<T>(onCancel: @escaping @Sendable () -> Void, _ body: () async throws -> T) async throws -> T {
        let key = try register(onCancel)
        defer { unregister(key) }
        return try await body()
    }

    private func register(_ onCancel: @escaping @Sendable () -> Void) throws -> Int {
        let key: Int? = state.withLock { state in
            guard !state.cancelled else { return nil }
            state.nextHandler += 1
            state.handlers[state.nextHandler] = onCancel
            return state.nextHandler
        }
        guard let key else { throw CancellationError() }
        return key
    }

    private func unregister(_ key: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: key) }
    }
}
