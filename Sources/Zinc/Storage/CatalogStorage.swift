/// Where a catalog's files live. Catalog logic speaks only this protocol, so a remote
/// backend (an S3-compatible bucket) plugs in without touching it. Paths are
/// catalog-relative and `/`-separated (`objects/ab/cd/abcd…`).
///
/// Durability contract: `commit` makes a file visible atomically, and `flush` makes
/// everything committed so far durable. Writers commit a batch, flush once, and only
/// then commit whatever refers to that batch (objects → archives → manifests → index).
public protocol CatalogStorage: AnyObject, Sendable {
    /// A human-readable location, used in messages.
    var location: String { get }

    /// The whole content of a small file (index, manifest, config), or nil when absent.
    func read(_ path: String) throws -> [UInt8]?

    /// Opens a file for streaming reads; nil when absent.
    func openForReading(_ path: String) throws -> StorageReader?

    /// The size in bytes, or nil when the file does not exist.
    func size(of path: String) throws -> Int64?

    /// Every file below `folder` (recursively), as catalog-relative paths, excluding
    /// temporary and hidden files.
    func list(_ folder: String) throws -> [String]

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

    /// Runs `body` holding the catalog's exclusive writer lock. Remote backends that
    /// cannot lock rely on `WriteCondition.ifUnchanged` instead.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T

    /// Runs `body` holding the import lock: shared by imports, exclusive by `clean`.
    /// An import stores (or decides to reuse) objects long before a committed manifest
    /// refers to them, so those objects look like garbage until it finishes; `clean`
    /// therefore waits until no import runs and keeps new ones out while it works.
    /// Always taken before the writer lock, never while holding it.
    func withImportLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T

    /// Temporary files left behind by writers that are gone (killed between starting a
    /// file and committing it), or older than `age` whoever wrote them.
    func abandonedTemporaryFiles(olderThan age: Duration) throws -> [String]
}

/// When a commit may replace what is already at the path.
public enum WriteCondition: Equatable, Sendable {
    /// Replace whatever is there.
    case always
    /// Only when nothing is there yet (immutable files: objects, new catalogs).
    case ifAbsent
    /// Only when the current content is exactly these bytes (compare-and-swap on the index).
    case ifUnchanged([UInt8])
}

public enum CommitResult: Equatable, Sendable {
    case written
    /// The condition did not hold; nothing was changed.
    case conditionFailed
}

public protocol StorageReader: AnyObject {
    /// Reads up to `buffer.count` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension StorageReader {
    public func forEachChunk(chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try read(into: buffer)
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}

public protocol StorageWriter: AnyObject {
    var path: String { get }
    var bytesWritten: Int64 { get }
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Appends a whole file of the same storage (archive members); backends may copy
    /// server- or kernel-side.
    func append(storedFile path: String) throws
    /// Appends a whole local file (raw objects straight from the source tree).
    func append(localFile: PosixFile) throws
    /// Appends `pieces` in order. Their sizes are known up front, so a backend may fill
    /// them concurrently (archives: every member's offset follows from the sizes), on at
    /// most `workers` threads (nil: one per available core).
    func append(pieces: [WritePiece], workers: Int?) throws
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
                guard bytesWritten - before == size else { throw WritePieceMismatch(path: path, expected: size, actual: bytesWritten - before) }
            }
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

extension CatalogStorage {
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
}
