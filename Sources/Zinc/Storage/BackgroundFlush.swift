import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CatalogStorage {
    /// Runs `body`, which writes a large batch, while another thread flushes the
    /// storage over and over: the disk then writes while the cores compress and hash,
    /// instead of everything waiting for one flush at the end. Durability still comes
    /// from the caller's own `flush` afterwards, which now finds little left to do. The
    /// first error of these flushes is thrown once `body` returns: the kernel reports a
    /// failed write-back to one flush only, and the caller's might come too late for it.
    func withBackgroundFlushes<T>(_ body: () throws -> T) throws -> T {
        let firstError = Mutex<Error?>(nil)
        // Before each flush: a short batch is left entirely to the caller's flush, and a
        // fast disk is not asked again and again for nothing.
        let flusher = PeriodicThread(every: 0.1) {
            do { try self.flush() } catch { firstError.withLock { $0 = $0 ?? error } }
        }
        let result: T
        do {
            defer { flusher.stop() }
            result = try body()
        }
        if let error = firstError.withLock({ $0 }) { throw error }
        return result
    }

    /// Starts `flush` on a thread of its own and returns at once: the disk writes a batch
    /// back while the caller goes on with work that does not refer to it yet.
    func startFlush() -> PendingFlush {
        PendingFlush(self)
    }
}

/// A `flush` running on another thread. `wait` returns once it is done, throwing its
/// error; call it before committing anything that refers to the batch flushed.
final class PendingFlush: Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// nil while the flush runs; then its outcome, kept for every later `wait`.
    private let outcome = Mutex<Result<Void, Error>?>(nil)

    fileprivate init(_ storage: CatalogStorage) {
        WorkerThread.start { [self] in
            let result = Result { try storage.flush() }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    func wait() throws {
        if outcome.withLock({ $0 }) == nil {
            done.wait()
        }
        try outcome.withLock { $0 }!.get()
    }
}
