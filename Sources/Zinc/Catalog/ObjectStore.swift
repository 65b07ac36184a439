/// The `objects/` folder: content stored once, named by SHA-1, immutable.
package struct ObjectStore: Sendable {
    package let storage: CatalogStorage
    package let config: CatalogConfig

    /// The shards (`objects/<sha[0:2]>`) that existed when `withShardSnapshot` was
    /// taken; nil when every lookup asks the storage.
    private var shards: Set<String>?
    /// Every stored object file and its size when the snapshot was taken (remote
    /// stores); nil when lookups ask the storage.
    private var listed: [String: Int64]?
    /// Counts the objects this store writes (not those it finds stored), when set.
    var tally: WriteTally?
    /// Assembles large objects in the store from bytes it holds, when set (remote stores).
    var assembly: StoreAssembly?

    package init(storage: CatalogStorage, config: CatalogConfig) {
        self.storage = storage
        self.config = config
    }

    /// This store, taking every object of a shard missing from `objects/` right now as
    /// absent without asking the storage: a new catalog then costs no lookup per
    /// object. An object another writer stores meanwhile is still never replaced:
    /// committing it refuses to overwrite and reads theirs back.
    ///
    /// On a remote store, where each lookup would be a request or two, the snapshot is a
    /// listing of every object instead (a request per thousand objects), and lookups
    /// answer from it.
    package func withShardSnapshot() throws -> ObjectStore {
        var store = self
        if storage.properties.isRemote {
            store.listed = Dictionary(try storage.entries(in: "objects").map { ($0.path, $0.size) }) { first, _ in first }
        } else {
            store.shards = try storage.folders(in: "objects")
        }
        return store
    }

    /// This store, counting the objects it writes in `tally`.
    func counting(into tally: WriteTally?) -> ObjectStore {
        var store = self
        store.tally = tally
        return store
    }

    /// The object as already stored, in whichever formats exist (possibly written by
    /// another tool with another gzip level), or nil.
    package func lookup(sha: String) throws -> StoredObject? {
        guard let digest = SHA1.Digest(hex: sha) else { return nil }
        return try lookup(digest, trustingSnapshot: true)
    }

    private func lookup(_ digest: SHA1.Digest, trustingSnapshot: Bool) throws -> StoredObject? {
        if trustingSnapshot, let shards, !shards.contains(StoredObject.shard(of: digest)) { return nil }
        var formats = [ObjectFormat: Int64]()
        for format in ObjectFormat.allCases {
            let path = StoredObject.path(digest: digest, format: format)
            let size = try trustingSnapshot && listed != nil ? listed?[path] : storage.size(of: path)
            guard let size else { continue }
            // What the storage says (a listing, a HEAD) is checked before an object holds it.
            guard (0...Manifest.maximumObjectSize).contains(size) else {
                throw ZincError.corruptFile(path: path, reason: "its size, \(size) bytes, is not from 0 to \(Manifest.maximumObjectSize)")
            }
            formats[format] = size
        }
        return formats.isEmpty ? nil : StoredObject(digest: digest, formats: formats)
    }

    /// Stores the content of `localPath` (whose SHA-1 is `sha`) unless it is already
    /// there. `stamp` is what the scan saw: a file that has changed since is refused,
    /// since its content may no longer be the one hashed. The gzip decision uses the
    /// whole file's compressed size; compression stops early once the output alone
    /// proves the threshold cannot be met, and is skipped when `CompressibilityProbe`
    /// finds the content random-looking throughout. A file over `inMemoryLimit` is
    /// deflated on `workers` threads (nil: one per available core), see
    /// `BlockGzipCompressor`.
    package func store(localPath: String, sha: String, stamp: FileStamp, workers: Int? = nil) throws -> StoredObject {
        try store(localPath: localPath, digest: SHA1.Digest(validHex: sha), stamp: stamp, workers: workers).object
    }

    /// `store(localPath:sha:…)` for a digest at hand, with `chunking` (see below).
    func store(
        localPath: String, digest: SHA1.Digest, stamp: FileStamp, workers: Int?, chunking: (() throws -> [ContentChunk])? = nil
    ) throws -> Stored {
        // Deflating on cores never leaves a file unstored.
        try store(localPath: localPath, digest: digest, stamp: stamp, deflate: .onCores(workers), chunking: chunking)!
    }

    /// Like `store(localPath:…)`, for a caller that is one of several threads storing
    /// files side by side: it deflates on the calling thread alone, and leaves a file of
    /// `deflateOnAllCoresFrom` bytes or more that has to be deflated unstored (nil), for
    /// the caller to store afterwards on every core. One huge file then does not keep one
    /// core busy long after the others ran out of files.
    package func storeOrDefer(localPath: String, sha: String, stamp: FileStamp) throws -> StoredObject? {
        try store(localPath: localPath, digest: SHA1.Digest(validHex: sha), stamp: stamp, deflate: .onThisThreadOrDefer)?.object
    }

    /// From this size on, a file is deflated alone on every core. Cores wait while a
    /// file's last blocks are deflated, so for several smaller files that costs more than
    /// a file per core side by side; a lone large file gains up to a factor of the core
    /// count.
    package static let deflateOnAllCoresFrom: Int64 = 64 << 20

    enum Deflate {
        case onCores(Int?)
        case onThisThreadOrDefer
    }

    /// A stored object and, for a content stored now and chunked (see `chunking`), where
    /// the chunks are in the stored bytes (see `ChunkList`).
    struct Stored {
        let object: StoredObject
        let chunks: ObjectChunks?
    }

    /// `chunking`: the content's chunks, for a content of `ContentChunker.threshold` bytes
    /// or more (nil: not chunked), asked for only when the content is to be deflated,
    /// since a gzipped object is deflated chunk by chunk. A raw object stored after them
    /// is given their layout; one stored without them is left for the caller to chunk.
    func store(
        localPath: String, digest: SHA1.Digest, stamp: FileStamp, deflate: Deflate,
        chunking: (() throws -> [ContentChunk])? = nil
    ) throws -> Stored? {
        if let existing = try lookup(digest, trustingSnapshot: true) { return Stored(object: existing, chunks: nil) }
        let file = try PosixFile.openForReading(localPath)
        if stamp.size <= Self.inMemoryLimit {
            let content = try Self.readWhole(file, size: stamp.size)
            try Self.checkUnchanged(file, since: stamp)
            return Stored(object: try storeInMemory(content, digest: digest), chunks: nil)
        }
        var chunks: [ContentChunk]?
        if !(try CompressibilityProbe.isSurelyIncompressible(file, size: stamp.size)) {
            let workers: Int?
            switch deflate {
            case .onCores(let count): workers = count
            case .onThisThreadOrDefer:
                if stamp.size >= Self.deflateOnAllCoresFrom { return nil }
                workers = 1
            }
            chunks = try chunking?()
            if let compressed = try storeDeflated(file, digest: digest, stamp: stamp, workers: workers, chunks: chunks) {
                return compressed
            }
        }
        let writer = try storage.makeWriter(for: StoredObject.path(digest: digest, format: .raw))
        defer { writer.discard() }
        try writer.append(localFile: file)
        guard writer.bytesWritten == stamp.size else { throw Self.changedWhileImported(file) }
        // Chunked now, not after storing, when the store may assemble it from its chunks.
        if chunks == nil, assembly != nil, writer is AssemblingWriter { chunks = try chunking?() }
        try Self.checkUnchanged(file, since: stamp)
        let layout = chunks.flatMap { ObjectChunks(raw: $0) }
        let object = try commit(writer, digest: digest, format: .raw, layout: layout)
        return Stored(object: object, chunks: layout)
    }

    /// Stores `content`, a whole file (at most `inMemoryLimit` bytes) already in memory
    /// whose SHA-1 is `sha`, unless it is already there.
    package func store(content: [UInt8], sha: String) throws -> StoredObject {
        try store(content: content, digest: SHA1.Digest(validHex: sha))
    }

    /// `store(content:sha:)` for a digest at hand.
    func store(content: [UInt8], digest: SHA1.Digest) throws -> StoredObject {
        if let existing = try lookup(digest, trustingSnapshot: true) { return existing }
        return try storeInMemory(content, digest: digest)
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
        guard content.count == size else { throw changedWhileImported(file) }
        return content
    }

    /// Refuses a file whose size, times or identity are no longer what the scan saw: its
    /// content may not be the one hashed, and an object must hold exactly the bytes its
    /// name is the SHA-1 of.
    static func checkUnchanged(_ file: PosixFile, since stamp: FileStamp) throws {
        guard try FileStamp(of: file) == stamp else { throw changedWhileImported(file) }
    }

    private static func changedWhileImported(_ file: PosixFile) -> ZincError {
        .sourceProblem(path: file.path, reason: "the file changed while it was being imported")
    }

    private func storeInMemory(_ content: [UInt8], digest: SHA1.Digest) throws -> StoredObject {
        let size = Int64(content.count)
        if content.withUnsafeBytes({ CompressibilityProbe.isSurelyIncompressible($0) }) {
            return try write(content, digest: digest, format: .raw)
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
        return try write(format == .gz ? compressed : content, digest: digest, format: format)
    }

    private func write(_ bytes: [UInt8], digest: SHA1.Digest, format: ObjectFormat) throws -> StoredObject {
        let writer = try storage.makeWriter(for: StoredObject.path(digest: digest, format: format))
        defer { writer.discard() }
        try bytes.withUnsafeBytes { try writer.write($0) }
        return try commit(writer, digest: digest, format: format)
    }

    private struct ThresholdExceeded: Error {}

    private func storeDeflated(
        _ file: PosixFile, digest: SHA1.Digest, stamp: FileStamp, workers: Int?, chunks: [ContentChunk]?
    ) throws -> Stored? {
        let limit = config.gzipThreshold * Double(stamp.size)
        let writer = try storage.makeWriter(for: StoredObject.path(digest: digest, format: .gz))
        defer { writer.discard() }
        let source = SparseReader(file)
        let compressor = BlockGzipCompressor(workers: workers, chunks: chunks?.map(\.length))
        let bytesIn: Int64
        do {
            bytesIn = try compressor.compress(read: source.readFully) { chunk in
                try writer.write(chunk)
                if Double(writer.bytesWritten) > limit { throw ThresholdExceeded() }
            }
        } catch is ThresholdExceeded {
            return nil
        }
        guard bytesIn == stamp.size else { throw Self.changedWhileImported(file) }
        try Self.checkUnchanged(file, since: stamp)
        let layout = chunks.flatMap { chunks -> ObjectChunks? in
            guard compressor.storedLengths.count == chunks.count else { return nil }
            return ObjectChunks(
                format: .gz, offset: Int64(BlockGzipCompressor.headerLength),
                chunks: zip(chunks, compressor.storedLengths).map { StoredChunk($0, storedLength: $1) },
                history: Int64(ObjectChunks.fullHistory))
        }
        let object = try commit(writer, digest: digest, format: .gz, layout: layout)
        // Written by another writer first: its flush points, if any, are not these.
        return Stored(object: object, chunks: object.formats[.gz] == writer.bytesWritten ? layout : nil)
    }

    /// Commits an object, assembled in the store from the bytes it holds when `layout`
    /// (where its chunks are) and the store allow it, otherwise whole.
    private func commit(_ writer: StorageWriter, digest: SHA1.Digest, format: ObjectFormat, layout: ObjectChunks? = nil) throws
        -> StoredObject
    {
        let size = writer.bytesWritten
        let assembled = try layout.flatMap { try assembly?.commit(writer, object: $0, condition: .ifAbsent) }
        switch try assembled ?? writer.commit(.ifAbsent) {
        case .written:
            tally?.add(bytes: size)
            return StoredObject(digest: digest, sizes: .only(format, size))
        case .conditionFailed:
            // Another writer stored it first: theirs is the object now, as stored.
            guard let existing = try lookup(digest, trustingSnapshot: false) else {
                throw ZincError.objectVanished(sha: digest.hex)
            }
            return existing
        }
    }
}
