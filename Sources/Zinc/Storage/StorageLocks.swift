/// How the writers of one catalog take turns, a capability of its own beside a
/// ``CatalogStorage``'s data: `flock`s on a local folder, lock objects (``LockObjects``)
/// on a store without locks. Neither lock is needed for the index to stay correct (its
/// compare-and-swap is); the import lock is what lets `clean` run beside imports.
public protocol StorageLocks: Sendable {
    /// Runs `body` while no other writer of this catalog runs its own `withWriterLock`
    /// body, where the backend can promise that; otherwise just runs it. Only a fast
    /// path: callers stay correct through conditional commits without it. Not reentrant.
    func withWriterLock<T>(_ body: () throws -> T) throws -> T

    /// Runs `body` holding the import lock: shared by imports, exclusive by `clean`.
    /// An import stores (or decides to reuse) objects long before a committed manifest
    /// refers to them, so those objects look like garbage until it finishes; `clean`
    /// therefore waits until no import runs and keeps new ones out while it works.
    /// Always taken before the writer lock, never while holding it. `body` gets the
    /// held lock so that it can check, before committing, that the lock was never lost.
    func withImportLock<T>(exclusive: Bool, _ body: (HeldLock) throws -> T) throws -> T
}
