import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An import the user may interrupt (Ctrl-C): what it committed is known at any moment,
/// and what it wrote without committing is recorded so that `clean` can say what those
/// files are and remove them once the grace period has passed.
///
/// The import runs on a catalog opened on ``storage``, which passes every call to the
/// real store and remembers the catalog files committed through it. ``stop()`` is called
/// right before the process exits: it waits for a commit of the index in flight, lets no
/// other one start, then finds out whether the version was committed. If it was not,
/// the files written are recorded (`retired/`, `never_listed`) and the lock objects this
/// process holds are removed, so `clean` need not wait for them to go stale.
public final class ImportInterruption: Sendable {
    /// The store the import must write through.
    public let storage: CatalogStorage
    private let inner: CatalogStorage
    private let journal: Journal

    public init(wrapping storage: CatalogStorage) {
        journal = Journal()
        inner = storage
        self.storage = JournaledStorage(inner: storage, journal: journal)
    }

    /// What the interrupted import had done.
    public enum Outcome: Equatable, Sendable {
        /// The catalog lists this version of the bundle: the import committed it.
        case committed(bundle: String, version: Int)
        /// No version was committed. `files` catalog files (`bytes` in all) were written,
        /// and recorded as never listed from `recordedAt`, unless `files` is 0.
        case notCommitted(files: Int, bytes: Int64, recordedAt: Date?)
    }

    /// Stops the import's commits and says what it committed; for a process about to
    /// exit, since a thread of the import that tries to commit afterwards waits for ever.
    public func stop() throws -> Outcome {
        let written = journal.close()
        if let bytes = try inner.read(Catalog.commitPoint) ?? inner.read("index.json") {
            let index = try CatalogIndex.parse(bytes, path: inner.location + "/" + Catalog.commitPoint)
            // Manifests are created, never replaced: one this process wrote is its version.
            for (name, bundle) in index.bundles {
                for version in bundle.versions where written[Manifest.path(bundle: name, version: version)] != nil {
                    return .committed(bundle: name, version: version)
                }
            }
        }
        let files = written.keys.filter { path in Self.catalogFolders.contains { path.hasPrefix($0 + "/") } }.sorted()
        var recordedAt: Date?
        if !files.isEmpty {
            let now = WallClock.nowMilliseconds()
            try RetirementRecords(storage: inner).record(files, at: now, neverListed: true)
            recordedAt = Date(timeIntervalSince1970: Double(now) / 1000)
        }
        try releaseLockObjects(in: inner)
        return .notCommitted(files: files.count, bytes: files.reduce(0) { $0 + (written[$1] ?? 0) }, recordedAt: recordedAt)
    }

    /// The folders of the files an import writes for its version.
    private static let catalogFolders = [
        "objects", "archives", ChunkList.folder, ContentSizes.folder, LMFORecord.folder, ManifestChunks.folder, "manifests",
    ]

    /// Removes the lock objects of this process (on stores without locks): it is exiting,
    /// and `clean` would otherwise wait until they go stale. A local catalog's lock is a
    /// `flock`, released by the exit itself.
    private func releaseLockObjects(in storage: CatalogStorage) throws {
        let pid = Int(getpid())
        for path in try storage.list(LockObjects.folder) {
            guard let bytes = try storage.read(path), let record = try? LockRecord.parse(bytes) else { continue }
            if record.pid == pid && record.host == LockObjects.hostName { try storage.delete(path) }
        }
    }
}

/// The paths committed through a `JournaledStorage`, with their sizes, and the gate that
/// stops commits of the index once the import is interrupted.
private final class Journal: Sendable {
    private struct State {
        var written = [String: Int64]()
        var indexCommitsInFlight = 0
        var closed = false
    }

    private let state = Mutex(State())

    func committed(_ path: String, size: Int64) {
        state.withLock { $0.written[path] = size }
    }

    /// Waits while the gate is closed (for ever: the process is exiting), then counts an
    /// index commit in flight until `leave`.
    func enterIndexCommit() {
        while !state.withLock({ state in
            guard !state.closed else { return false }
            state.indexCommitsInFlight += 1
            return true
        }) {
            sleepThread(for: .seconds(1))
        }
    }

    func leaveIndexCommit() {
        state.withLock { $0.indexCommitsInFlight -= 1 }
    }

    /// Closes the gate, waits for the index commits in flight, and returns what was written.
    func close() -> [String: Int64] {
        state.withLock { $0.closed = true }
        while state.withLock({ $0.indexCommitsInFlight > 0 }) { sleepThread(for: .milliseconds(5)) }
        return state.withLock { $0.written }
    }
}

/// The import's store: every call passed to the real one, each file committed noted in
/// the journal, and commits of the index held at its gate.
private final class JournaledStorage: ForwardingStorage, @unchecked Sendable {
    let journal: Journal

    init(inner: CatalogStorage, journal: Journal) {
        self.journal = journal
        super.init(wrapping: inner)
    }

    override func makeWriter(for path: String) throws -> StorageWriter {
        let writer = try inner.makeWriter(for: path)
        if let assembling = writer as? AssemblingWriter { return JournaledAssemblingWriter(assembling, journal: journal) }
        return JournaledWriter(inner: writer, journal: journal)
    }
}

/// A writer of `JournaledStorage`: the inner store's, noted in the journal when committed.
private class JournaledWriter: StorageWriter {
    let inner: StorageWriter
    let journal: Journal

    init(inner: StorageWriter, journal: Journal) {
        self.inner = inner
        self.journal = journal
    }

    var path: String { inner.path }
    var bytesWritten: Int64 { inner.bytesWritten }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try inner.write(bytes) }
    func append(storedFile path: String) throws { try inner.append(storedFile: path) }
    func append(localFile: StorageReader) throws { try inner.append(localFile: localFile) }
    func append(pieces: [WritePiece], workers: Int?) throws { try inner.append(pieces: pieces, workers: workers) }
    func discard() { inner.discard() }

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        let isIndex = inner.path == Catalog.commitPoint
        if isIndex { journal.enterIndexCommit() }
        defer { if isIndex { journal.leaveIndexCommit() } }
        let result = try inner.commit(condition)
        if result == .written { journal.committed(inner.path, size: inner.bytesWritten) }
        return result
    }
}

/// A `JournaledWriter` of a store that assembles files, whose assembled files are noted too.
private final class JournaledAssemblingWriter: JournaledWriter, AssemblingWriter {
    private let assembling: AssemblingWriter

    init(_ assembling: AssemblingWriter, journal: Journal) {
        self.assembling = assembling
        super.init(inner: assembling, journal: journal)
    }

    var assemblyLimits: AssemblyLimits { assembling.assemblyLimits }

    func assemble(_ plan: AssemblyPlan, condition: WriteCondition) throws -> AssemblyResult {
        let result = try assembling.assemble(plan, condition: condition)
        if result == .written { journal.committed(path, size: plan.size) }
        return result
    }
}
