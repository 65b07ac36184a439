import Dispatch
import Synchronization

/// Runs blocking `body` (a file hashed, a growing file read, a libcurl transfer) on a
/// thread of its own and waits for it without holding a thread of the cooperative pool,
/// whose few threads the async work around it needs.
package func onWorkerThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        WorkerThread.start { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs async `body` to its end from synchronous code, blocking the calling thread
/// until then: how a blocking API is built on an async one. `body` runs on `executor`,
/// threads of its own, so that the wait holds up nothing `body` needs, even when the
/// calling thread is one of the cooperative pool's.
package func blockingWait<T: Sendable>(
    on executor: any TaskExecutor, _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Task(executorPreference: executor) {
        let result = await Result { try await body() }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    finished.wait()
    return try outcome.withLock { $0! }.get()
}
