#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `objects/` folder: content stored once, named by SHA-1, immutable.
public struct ObjectStore: Sendable {
    public let storage: CatalogStorage
    public let config: CatalogConfig

    /// The shards (`objects/<sha[0:2]>`) that existed when `withShardSnapshot` was
    /// taken; nil when every lookup asks the storage.
    private var shards: Set<String>?

    public init(storage: CatalogStorage, config: CatalogConfig) {
        self.storage = storage
        self.config = config
    }

    /// This store, taking every object of a shard missing from `objects/` right now as
    /// absent without asking the storage: a new catalog then costs no lookup per
    /// object. An object another writer stores meanwhile is still never replaced:
    /// committing it refuses to overwrite and reads theirs back.
    public func withShardSnapshot() throws -> ObjectStore {
        var store = self
        store.shards = try storage.folders(in: "objects")
        return store
    }

    /// The object as already stored, in whichever formats exist (possibly written by
    /// another tool with another gzip level), or nil.
    public func lookup(sha: String) throws -> StoredObject? {
        try lookup(sha: sha, trustingSnapshot: true)
    }

    private func lookup(sha: String, trustingSnapshot: Bool) throws -> StoredObject? {
        if trustingSnapshot, let shards, !shards.contains(String(sha.prefix(2))) { return nil }
        var formats = [ObjectFormat: Int64]()
        for format in ObjectFormat.allCases {
            if let size = try storage.size(of: StoredObject.path(sha: sha, format: format)) { formats[format] = size }
        }
        return formats.isEmpty ? nil : StoredObject(sha: sha, formats: formats)
    }

    /// Stores the content of `path` (whose SHA-1 is `sha`) unless it is already there.
    /// The gzip decision uses the whole file's compressed size; compression stops early
    /// once the output alone proves the threshold cannot be met, and is skipped when
    /// `CompressibilityProbe` finds the content random-looking throughout.
    public func store(localPath: String, sha: String, size: Int64) throws -> StoredObject {
        if let existing = try lookup(sha: sha) { return existing }
        let file = try PosixFile.openForReading(localPath)
        if size <= Self.inMemoryLimit { return try storeInMemory(Self.readWhole(file, size: size), sha: sha) }
        if !(try CompressibilityProbe.isSurelyIncompressible(file, size: size)),
           let compressed = try storeCompressed(file, sha: sha, rawSize: size) {
            return compressed
        }
        guard lseek(file.fd, 0, SEEK_SET) == 0 else { throw ZincError.io(path: localPath, operation: "seek", errno: errno) }
        let writer = try storage.makeWriter(for: StoredObject.path(sha: sha, format: .raw))
        defer { writer.discard() }
        try writer.append(localFile: file)
        guard writer.bytesWritten == size else {
            throw ZincError.sourceProblem(path: localPath, reason: "the file changed while it was being imported")
        }
        return try commit(writer, sha: sha, format: .raw)
    }

    /// Stores `content`, a whole file (at most `inMemoryLimit` bytes) already in memory
    /// whose SHA-1 is `sha`, unless it is already there.
    public func store(content: [UInt8], sha: String) throws -> StoredObject {
        if let existing = try lookup(sha: sha) { return existing }
        return try storeInMemory(content, sha: sha)
    }

    /// Files up to this size are read and compressed in memory, so exactly one file is
    /// written per object. Streaming them would create a gzip temporary, throw it away
    /// when the saving falls short and write a raw one: on ext4 without a journal an
    /// inode freed in the last minute (six while its table block is dirty again) is
    /// skipped, slowly, by every later allocation, which made catalogs of many small
    /// files several times slower to build. Memory stays bounded: one such buffer per
    /// worker.
    static let inMemoryLimit: Int64 = 1 << 20

    /// The whole content of `file`, which the scan found `size` bytes long (at most
    /// `inMemoryLimit`); an error when it has changed length since.
    static func readWhole(_ file: PosixFile, size: Int64) throws -> [UInt8] {
        // One byte of room beyond the expected size tells a grown file from a complete read.
        let content = try file.readAll(upTo: Int(size) + 1)
        guard content.count == size else {
            throw ZincError.sourceProblem(path: file.path, reason: "the file changed while it was being imported")
        }
        return content
    }

    private func storeInMemory(_ content: [UInt8], sha: String) throws -> StoredObject {
        let size = Int64(content.count)
        if content.withUnsafeBytes({ CompressibilityProbe.isSurelyIncompressible($0) }) {
            return try write(content, sha: sha, format: .raw)
        }
        let limit = config.gzipThreshold * Double(size)
        var compressed = [UInt8]()
        let compressor = GzipCompressor { chunk in
            compressed.append(contentsOf: chunk)
            if Double(compressed.count) > limit { throw ThresholdExceeded() }
        }
        let format: ObjectFormat
        do {
            try content.withUnsafeBytes { try compressor.update($0) }
            try compressor.finish()
            format = .gz
        } catch is ThresholdExceeded {
            format = .raw
        }
        return try write(format == .gz ? compressed : content, sha: sha, format: format)
    }

    private func write(_ bytes: [UInt8], sha: String, format: ObjectFormat) throws -> StoredObject {
        let writer = try storage.makeWriter(for: StoredObject.path(sha: sha, format: format))
        defer { writer.discard() }
        try bytes.withUnsafeBytes { try writer.write($0) }
        return try commit(writer, sha: sha, format: format)
    }

    private struct ThresholdExceeded: Error {}

    private func storeCompressed(_ file: PosixFile, sha: String, rawSize: Int64) throws -> StoredObject? {
        let limit = config.gzipThreshold * Double(rawSize)
        let writer = try storage.makeWriter(for: StoredObject.path(sha: sha, format: .gz))
        defer { writer.discard() }
        let compressor = GzipCompressor { chunk in
            try writer.write(chunk)
            if Double(writer.bytesWritten) > limit { throw ThresholdExceeded() }
        }
        var bytesIn: Int64 = 0
        do {
            try file.forEachChunk { chunk in
                bytesIn += Int64(chunk.count)
                try compressor.update(chunk)
            }
            try compressor.finish()
        } catch is ThresholdExceeded {
            return nil
        }
        guard bytesIn == rawSize else {
            throw ZincError.sourceProblem(path: file.path, reason: "the file changed while it was being imported")
        }
        return try commit(writer, sha: sha, format: .gz)
    }

    private func commit(_ writer: StorageWriter, sha: String, format: ObjectFormat) throws -> StoredObject {
        let size = writer.bytesWritten
        switch try writer.commit(.ifAbsent) {
        case .written:
            return StoredObject(sha: sha, formats: [format: size])
        case .conditionFailed:
            // Another writer stored it first: theirs is the object now, as stored.
            guard let existing = try lookup(sha: sha, trustingSnapshot: false) else {
                throw ZincError.conflict("object \(sha) vanished while it was being stored")
            }
            return existing
        }
    }
}
