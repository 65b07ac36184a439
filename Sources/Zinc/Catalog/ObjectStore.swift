#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `objects/` folder: content stored once, named by SHA-1, immutable.
public struct ObjectStore: Sendable {
    public let storage: CatalogStorage
    public let config: CatalogConfig

    public init(storage: CatalogStorage, config: CatalogConfig) {
        self.storage = storage
        self.config = config
    }

    /// The object as already stored, in whichever formats exist (possibly written by
    /// another tool with another gzip level), or nil.
    public func lookup(sha: String) throws -> StoredObject? {
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
        let file = try PosixFile.open(localPath)
        if size > 0, !(try CompressibilityProbe.isSurelyIncompressible(file, size: size)),
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
            guard let existing = try lookup(sha: sha) else {
                throw ZincError.conflict("object \(sha) vanished while it was being stored")
            }
            return existing
        }
    }
}
