import Foundation
import Zinc

/// A catalog kept in memory: a second `CatalogStorage` backend with none of the
/// filesystem's help (no rename, no flock, no random access), standing in for a remote
/// object store. Catalog logic must work on it unchanged.
public final class MemoryStorage: CatalogStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var files = [String: [UInt8]]()
    private let writerLock = NSLock()
    private let importLock = ReadWriteLock()

    public init() {}

    public var location: String { "memory:" }

    /// Every stored path, for tests.
    public var paths: [String] { lock.withLock { files.keys.sorted() } }

    public func read(_ path: String) throws -> [UInt8]? { lock.withLock { files[path] } }

    public func openForReading(_ path: String) throws -> StorageReader? {
        try read(path).map(MemoryReader.init)
    }

    public func size(of path: String) throws -> Int64? { lock.withLock { files[path].map { Int64($0.count) } } }

    public func list(_ folder: String) throws -> [String] {
        lock.withLock { files.keys.filter { $0.hasPrefix(folder + "/") }.sorted() }
    }

    /// Folders exist only as prefixes of keys, as in an object store.
    public func folders(in folder: String) throws -> Set<String> {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return lock.withLock {
            Set(files.keys.compactMap { path -> String? in
                guard path.hasPrefix(prefix) else { return nil }
                let rest = path.dropFirst(prefix.count)
                guard let slash = rest.firstIndex(of: "/"), !rest.hasPrefix(".") else { return nil }
                return String(rest[..<slash])
            })
        }
    }

    public func delete(_ path: String) throws { _ = lock.withLock { files.removeValue(forKey: path) } }

    public func makeWriter(for path: String) throws -> StorageWriter { MemoryWriter(storage: self, path: path) }

    public func flush() throws {}

    public func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try writerLock.withLock(body)
    }

    public func withImportLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        try importLock.with(exclusive: exclusive, body)
    }

    public func abandonedTemporaryFiles(olderThan age: Duration) throws -> [String] { [] }

    /// Applies a commit atomically, as an object store's conditional PUT would.
    fileprivate func commit(_ bytes: [UInt8], to path: String, _ condition: WriteCondition) -> CommitResult {
        lock.withLock {
            switch condition {
            case .always: break
            case .ifAbsent: if files[path] != nil { return .conditionFailed }
            case .ifUnchanged(let expected): if files[path] != expected { return .conditionFailed }
            }
            files[path] = bytes
            return .written
        }
    }
}

private final class MemoryReader: StorageReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}

/// Buffers the whole file and publishes it on commit; it relies on the protocol's
/// sequential `append(pieces:workers:)`.
private final class MemoryWriter: StorageWriter {
    let path: String
    private let storage: MemoryStorage
    private var buffer = [UInt8]()
    private var open = true

    init(storage: MemoryStorage, path: String) {
        self.storage = storage
        self.path = path
    }

    var bytesWritten: Int64 { Int64(buffer.count) }

    func write(_ bytes: UnsafeRawBufferPointer) throws { buffer.append(contentsOf: bytes) }

    func append(storedFile path: String) throws {
        guard let bytes = try storage.read(path) else { throw ZincError.integrity(path: path, reason: "missing") }
        buffer.append(contentsOf: bytes)
    }

    func append(localFile: PosixFile) throws {
        try localFile.forEachChunk { buffer.append(contentsOf: $0) }
    }

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        precondition(open, "commit on a closed writer")
        open = false
        return storage.commit(buffer, to: path, condition)
    }

    func discard() { open = false }
}

/// Shared or exclusive, like flock's LOCK_SH and LOCK_EX.
private final class ReadWriteLock: @unchecked Sendable {
    private var lock = pthread_rwlock_t()

    init() { pthread_rwlock_init(&lock, nil) }
    deinit { pthread_rwlock_destroy(&lock) }

    func with<T>(exclusive: Bool, _ body: () throws -> T) rethrows -> T {
        _ = exclusive ? pthread_rwlock_wrlock(&lock) : pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return try body()
    }
}
