import Foundation
import Zinc

/// A catalog kept in memory: a `CatalogStorage` backend with none of the filesystem's
/// help (no rename, no flock, no random access) and no lock at all, which is what an
/// object store is. Its only guarantees are the protocol's: atomic, conditional
/// commits. The import lock is the protocol's default, lock objects under `locks/`.
///
/// Tests steer races through `beforeCommit`, called on the committing thread before
/// each commit takes effect: blocking there holds that writer at a precise point while
/// others go on.
public final class MemoryStorage: CatalogStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var files = [String: (bytes: [UInt8], generation: Int)]()
    private var generation = 0
    private let hooks = NSLock()
    private var commitHook: (@Sendable (String, [UInt8]) -> Void)?

    public let lockPolicy: LockPolicy

    public init(lockPolicy: LockPolicy = .standard) {
        self.lockPolicy = lockPolicy
    }

    public var location: String { "memory:" }

    /// Called with the path and new bytes of every commit, before it takes effect.
    public var beforeCommit: (@Sendable (String, [UInt8]) -> Void)? {
        get { hooks.withLock { commitHook } }
        set { hooks.withLock { commitHook = newValue } }
    }

    private var failingFlushes: Error?

    /// When set, every `flush` throws it, as a disk whose write-back failed would.
    public var flushError: Error? {
        get { hooks.withLock { failingFlushes } }
        set { hooks.withLock { failingFlushes = newValue } }
    }

    private var readsByFolder = [String: Int]()

    /// How many reads (whole or streamed) of files below `folder` were made so far.
    public func reads(under folder: String) -> Int { lock.withLock { readsByFolder[folder] ?? 0 } }

    private func countRead(_ path: String) {
        lock.withLock { readsByFolder[String(path.prefix { $0 != "/" }), default: 0] += 1 }
    }

    /// Every stored path, for tests.
    public var paths: [String] { lock.withLock { files.keys.sorted() } }

    public func readVersioned(_ path: String) throws -> VersionedContent? {
        countRead(path)
        return lock.withLock { files[path].map { VersionedContent(bytes: $0.bytes, version: StorageVersion("g\($0.generation)")) } }
    }

    public func openForReading(_ path: String) throws -> StorageReader? {
        try read(path).map(MemoryReader.init)  // counted by readVersioned
    }

    public func size(of path: String) throws -> Int64? { lock.withLock { files[path].map { Int64($0.bytes.count) } } }

    public func entries(in folder: String) throws -> [StorageEntry] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return lock.withLock {
            files.filter { $0.key.hasPrefix(prefix) }.map {
                StorageEntry(path: $0.key, size: Int64($0.value.bytes.count), fingerprint: nil)
            }
        }.sorted { $0.path < $1.path }
    }

    /// Folders exist only as prefixes of keys, as in an object store.
    public func folders(in folder: String) throws -> Set<String> {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return lock.withLock {
            Set(
                files.keys.compactMap { path -> String? in
                    guard path.hasPrefix(prefix) else { return nil }
                    let rest = path.dropFirst(prefix.count)
                    guard let slash = rest.firstIndex(of: "/"), !rest.hasPrefix(".") else { return nil }
                    return String(rest[..<slash])
                })
        }
    }

    public func delete(_ path: String) throws { _ = lock.withLock { files.removeValue(forKey: path) } }

    public func makeWriter(for path: String) throws -> StorageWriter { MemoryWriter(storage: self, path: path) }

    public func flush() throws {
        if let flushError { throw flushError }
    }

    /// Local, and every commit takes the next generation.
    public var properties: StorageProperties {
        var properties = StorageProperties.local
        properties.lockPolicy = lockPolicy
        return properties
    }

    /// Writers hold their bytes in memory until they commit: none is left behind.
    public func abandonedWrites(olderThan age: Duration) throws -> [AbandonedWrite] { [] }

    public func discard(_ write: AbandonedWrite) throws {
        preconditionFailure("\(write.displayPath) is no write of a MemoryStorage: it lists none")
    }

    /// Applies a commit atomically, as an object store's conditional PUT would.
    fileprivate func commit(_ bytes: [UInt8], to path: String, _ condition: WriteCondition) -> CommitResult {
        beforeCommit?(path, bytes)
        return lock.withLock {
            switch condition {
            case .always: break
            case .ifAbsent: if files[path] != nil { return .conditionFailed }
            case .ifMatch(let expected): if files[path].map({ StorageVersion("g\($0.generation)") }) != expected { return .conditionFailed }
            }
            generation += 1
            files[path] = (bytes, generation)
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

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        precondition(open, "commit on a closed writer")
        open = false
        return storage.commit(buffer, to: path, condition)
    }

    func discard() { open = false }
}
