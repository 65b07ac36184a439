/// Where a catalog's files live. Catalog logic speaks only this protocol, so a remote
/// backend (an S3-compatible bucket) plugs in without touching it. Paths are
/// catalog-relative and `/`-separated (`objects/ab/cd/abcd…`).
///
/// What every backend must guarantee (`StorageConformanceSuite` checks each point):
/// - **Atomic commits.** A file written through `makeWriter` is invisible until
///   `commit`, then visible whole; a discarded or abandoned writer leaves nothing that
///   `list` or `read` show.
/// - **Conditional commits are atomic.** `ifAbsent` never replaces a file and
///   `ifMatch` replaces only the very version a read returned, even when writers on
///   other machines race for the same path. This is all the catalog needs to stay
///   correct with no lock at all: version numbers are reserved, and the index changed,
///   by compare-and-swap on `catalog.json`. What makes a version change is a declared
///   capability, `versionTracking`: every commit (a local folder), or only the bytes
///   (S3, whose ETag is a digest of them). Either is enough for the index.
/// - **Read after write.** Once a commit returns, every reader (any process, any
///   machine) reads the new content and lists the file.
/// - **Durability.** `flush` makes everything committed so far durable. Writers commit
///   a batch, flush once, and only then commit whatever refers to that batch
///   (objects → archives → manifests → index). `flush(files:)` makes a few named files
///   durable without waiting for every other write still on its way to the disk.
///
/// Locks (`locks`, a capability of its own) are optional speed-ups, never needed for
/// correctness of the index: the writer lock serializes index writers where the backend
/// can (`flock` on a local folder), so they seldom retry a compare-and-swap. The import
/// lock is needed by `clean`, and every backend gets one: `flock` locally, lock objects
/// under `locks/` (`LockObjects`, the default) on stores without locks.
///
/// What a backend is, rather than what it does, is one value, ``properties``: whether
/// its calls are round trips, how many to keep in flight, what changes a version, what
/// its listings' fingerprints are.
///
/// A writer killed mid-file leaves its bytes behind, invisible but taking space: `clean`
/// finds them with `abandonedWrites` and removes them with `discard`, as handles, since
/// they are no catalog files.
///
/// Threads: readers, `size`, `entries` and writers may be used from any thread at once
/// (imports store objects on every core); one writer is used by one thread at a time.
/// A wrapper that changes a few calls subclasses `ForwardingStorage` (in this package).
public protocol CatalogStorage: AnyObject, Sendable {
    /// A human-readable location, used in messages.
    var location: String { get }

    /// What kind of store this is (see ``StorageProperties``).
    var properties: StorageProperties { get }

    /// How writers of this catalog take turns. The default: lock objects under `locks/`
    /// with ``StorageProperties/lockPolicy``.
    var locks: any StorageLocks { get }

    /// The whole content of a small file (index, manifest, config) and the version
    /// token to compare-and-swap it with, or nil when absent.
    func readVersioned(_ path: String) throws -> VersionedContent?

    /// Opens a file for streaming reads; nil when absent.
    func openForReading(_ path: String) throws -> StorageReader?

    /// The size in bytes, or nil when the file does not exist.
    func size(of path: String) throws -> Int64?

    /// Every file below `folder` (recursively), as catalog-relative paths with its size,
    /// and its fingerprint where the backend's listing carries one (what `publish`
    /// compares without reading every file), excluding temporary and hidden files;
    /// sorted by path.
    func entries(in folder: String) throws -> [StorageEntry]

    /// The names of the folders directly inside `folder`, excluding hidden ones; empty
    /// when `folder` does not exist. On backends whose folders are only key prefixes
    /// these are the ones holding files; with real folders, empty ones may be listed.
    func folders(in folder: String) throws -> Set<String>

    /// Removes a file; absent files are not an error.
    func delete(_ path: String) throws

    /// Starts a new file at `path`; it becomes visible only on `commit`.
    func makeWriter(for path: String) throws -> StorageWriter

    /// Makes every committed write durable.
    func flush() throws

    /// Makes the committed files at `paths` durable, under their names. Where `flush`
    /// would wait for the whole batch of other writes still on its way to the disk (a
    /// local folder's objects), this syncs the named files alone: the index can be
    /// committed while an import's objects are still being written back.
    func flush(files paths: [String]) throws

    /// Writes left behind by writers that are gone (killed between starting a file and
    /// committing it), or begun more than `age` ago whoever wrote them.
    func abandonedWrites(olderThan age: Duration) throws -> [AbandonedWrite]

    /// Removes what an abandoned write holds; one already gone is not an error. `write`
    /// must come from this storage's `abandonedWrites`.
    func discard(_ write: AbandonedWrite) throws
}

extension CatalogStorage {
    /// Backends whose `flush` costs the same whatever was written flush everything.
    public func flush(files paths: [String]) throws { try flush() }

    public var locks: any StorageLocks { LockObjects(storage: self, policy: properties.lockPolicy) }

    /// Every file below `folder` (recursively), as catalog-relative paths, sorted.
    public func list(_ folder: String) throws -> [String] {
        try entries(in: folder).map(\.path)
    }

    /// The fingerprint this backend's listing shows for a file holding exactly `bytes`;
    /// nil when its listings carry none.
    public func fingerprint(of bytes: [UInt8]) -> String? {
        switch properties.listingFingerprint {
        case .none: nil
        case .md5: Hex.encode(MD5.digest(bytes))
        }
    }

    /// Runs `body` while no other writer of this catalog runs its own writer-locked
    /// body, where the backend can promise that; otherwise just runs it (``StorageLocks``).
    public func withWriterLock<T>(_ body: () throws -> T) throws -> T {
        try locks.withWriterLock(body)
    }

    /// Runs `body` holding the import lock: shared by imports, exclusive by `clean`
    /// (``StorageLocks``).
    public func withImportLock<T>(exclusive: Bool, _ body: (HeldLock) throws -> T) throws -> T {
        try locks.withImportLock(exclusive: exclusive, body)
    }

    /// The whole content of a small file, or nil when absent.
    public func read(_ path: String) throws -> [UInt8]? {
        try readVersioned(path)?.bytes
    }
}

/// A file as a listing shows it.
public struct StorageEntry: Equatable, Sendable {
    public let path: String
    public let size: Int64
    /// A digest of the content the listing carries (an S3 ETag that is an MD5); two
    /// entries with equal fingerprints from one backend have equal bytes.
    public let fingerprint: String?

    public init(path: String, size: Int64, fingerprint: String?) {
        self.path = path
        self.size = size
        self.fingerprint = fingerprint
    }
}

/// When a commit may replace what is already at the path.
public enum WriteCondition: Equatable, Sendable {
    /// Replace whatever is there.
    case always
    /// Only when nothing is there yet (immutable files: objects, manifests, archives).
    case ifAbsent
    /// Only when the file is still the version `readVersioned` returned
    /// (compare-and-swap on the index).
    case ifMatch(StorageVersion)
}

/// What ``StorageWriter/commit(_:)`` did.
public enum CommitResult: Equatable, Sendable {
    case written
    /// The condition did not hold; nothing was changed.
    case conditionFailed
}

/// A file of a ``CatalogStorage`` being written: invisible to readers until
/// ``commit(_:)``, and gone if discarded instead.
public protocol StorageWriter: AnyObject {
    /// The catalog-relative path the file will have.
    var path: String { get }
    /// How many bytes were appended so far.
    var bytesWritten: Int64 { get }
    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Appends a whole file of the same storage (archive members); backends may copy
    /// server- or kernel-side.
    func append(storedFile path: String) throws
    /// Appends the whole of a local file, which nothing has read from yet, through its
    /// reader (raw objects straight from the source tree, a local catalog's files being
    /// published). The default writes it chunk by chunk; a backend may take the files
    /// Zinc opens a faster way (a kernel-side copy, an upload from the descriptor).
    func append(localFile: StorageReader) throws
    /// Appends `pieces` in order. Their sizes are known up front, so a backend may fill
    /// them concurrently (archives: every member's offset follows from the sizes), on at
    /// most `workers` threads (nil: one per available core).
    func append(pieces: [WritePiece], workers: Int?) throws
    /// Makes the file visible at ``path``, whole, if `condition` holds; atomic against
    /// other writers of the same path (see ``CatalogStorage``).
    func commit(_ condition: WriteCondition) throws -> CommitResult
    /// Drops the uncommitted file. Safe to call after `commit`.
    func discard()
}

/// A part of a file assembled from known pieces.
public enum WritePiece: Sendable {
    case bytes([UInt8])
    /// A whole file of the same storage, which must have exactly `size` bytes.
    case storedFile(path: String, size: Int64)

    public var size: Int64 {
        switch self {
        case .bytes(let bytes): return Int64(bytes.count)
        case .storedFile(_, let size): return size
        }
    }
}

extension StorageWriter {
    public func append(localFile: StorageReader) throws {
        try appendChunks(of: localFile)
    }

    /// Appends what `reader` reads, chunk by chunk: the default of `append(localFile:)`,
    /// and what a backend's own falls back to for a reader it has no faster way for.
    public func appendChunks(of reader: StorageReader) throws {
        try reader.forEachChunk { try write($0) }
    }

    /// Appends the pieces one after the other: the default for backends without random
    /// access (FileStorage fills them in parallel instead).
    public func append(pieces: [WritePiece], workers: Int?) throws {
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                try write(bytes)
            case .storedFile(let path, let size):
                let before = bytesWritten
                try append(storedFile: path)
                guard bytesWritten - before == size else {
                    throw WritePieceMismatch(path: path, expected: size, actual: bytesWritten - before)
                }
            }
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

extension CatalogStorage {
    /// Whether a file is at `path`.
    public func exists(_ path: String) throws -> Bool {
        try size(of: path) != nil
    }

    /// Writes a small file in one go.
    @discardableResult
    public func write(_ bytes: [UInt8], to path: String, _ condition: WriteCondition = .always) throws -> CommitResult {
        let writer = try makeWriter(for: path)
        defer { writer.discard() }
        try writer.write(bytes)
        return try writer.commit(condition)
    }
}

/// A stored file did not have the size its piece declared.
public struct WritePieceMismatch: Error, Equatable, Sendable {
    public let path: String
    public let expected: Int64
    public let actual: Int64

    public init(path: String, expected: Int64, actual: Int64) {
        self.path = path
        self.expected = expected
        self.actual = actual
    }
}
