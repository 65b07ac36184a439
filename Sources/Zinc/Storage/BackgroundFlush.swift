import Foundation

extension CatalogStorage {
    /// Runs `body`, which writes a large batch, while another thread flushes the
    /// storage over and over: the disk then writes while the cores compress and hash,
    /// instead of everything waiting for one flush at the end. Durability still comes
    /// from the caller's own `flush` afterwards (whose errors count; these are ignored),
    /// which now finds little left to do.
    func withBackgroundFlushes<T>(_ body: () throws -> T) rethrows -> T {
        let flusher = BackgroundFlusher(storage: self)
        defer { flusher.stop() }
        return try body()
    }
}

private final class BackgroundFlusher: @unchecked Sendable {
    /// Before each flush: a short batch is left entirely to the caller's flush, and a
    /// fast disk is not asked again and again for nothing.
    private static let pause: TimeInterval = 0.1
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false

    init(storage: CatalogStorage) {
        Thread.detachNewThread { [self] in
            condition.lock()
            while !stopping {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.pause))
                if stopping { break }
                condition.unlock()
                try? storage.flush()
                condition.lock()
            }
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Returns once the thread has finished its last flush.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
