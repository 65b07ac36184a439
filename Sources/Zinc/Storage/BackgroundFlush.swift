#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CatalogStorage {
    /// Runs `body`, which writes a large batch, while another thread flushes the
    /// storage over and over: the disk then writes while the cores compress and hash,
    /// instead of everything waiting for one flush at the end. Durability still comes
    /// from the caller's own `flush` afterwards (whose errors count; these are ignored),
    /// which now finds little left to do.
    func withBackgroundFlushes<T>(_ body: () throws -> T) rethrows -> T {
        // Before each flush: a short batch is left entirely to the caller's flush, and a
        // fast disk is not asked again and again for nothing.
        let flusher = PeriodicThread(every: 0.1) { try? self.flush() }
        defer { flusher.stop() }
        return try body()
    }
}
