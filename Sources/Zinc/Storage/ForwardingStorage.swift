/// A store that passes every call to another: a wrapper subclasses it and overrides the
/// calls it changes (the import's journal notes each commit, nothing else), so a new
/// requirement of ``CatalogStorage`` is forwarded here once rather than in every wrapper.
package class ForwardingStorage: CatalogStorage, @unchecked Sendable {
    // Sendable by hand: a non-final class cannot be checked, and its one stored
    // property is an immutable reference to a Sendable store.
    package let inner: any CatalogStorage

    package init(wrapping inner: any CatalogStorage) {
        self.inner = inner
    }

    package var location: String { inner.location }
    package var properties: StorageProperties { inner.properties }
    package var locks: any StorageLocks { inner.locks }
    package func readVersioned(_ path: String) throws -> VersionedContent? { try inner.readVersioned(path) }
    package func openForReading(_ path: String) throws -> StorageReader? { try inner.openForReading(path) }
    package func size(of path: String) throws -> Int64? { try inner.size(of: path) }
    package func entries(in folder: String) throws -> [StorageEntry] { try inner.entries(in: folder) }
    package func folders(in folder: String) throws -> Set<String> { try inner.folders(in: folder) }
    package func delete(_ path: String) throws { try inner.delete(path) }
    package func makeWriter(for path: String) throws -> StorageWriter { try inner.makeWriter(for: path) }
    package func flush() throws { try inner.flush() }
    package func flush(files paths: [String]) throws { try inner.flush(files: paths) }
    package func abandonedWrites(olderThan age: Duration) throws -> [AbandonedWrite] { try inner.abandonedWrites(olderThan: age) }
    package func discard(_ write: AbandonedWrite) throws { try inner.discard(write) }
}
