import Synchronization

/// A version's manifest and its gzipped copy, written but not yet in place: `commit`
/// puts them there, and dropped before that they are discarded. Encoding a manifest of
/// 100,000 files (JSON, gzip, SHA-1) takes a core for a quarter of a second, which it
/// can spend while the archives, mostly waiting for the disk, are written; FORMAT only
/// wants the manifest in place after them.
final class EncodedManifest: Sendable {
    /// Under a lock because the manifest is encoded on one thread and committed on
    /// another, though never used by two at once.
    private let files: Mutex<Files>
    private let location: String

    private struct Files {
        let json: StorageWriter
        let gz: StorageWriter
        /// The SHA-1 of the JSON, once encoded.
        var sha = ""
        /// Where the JSON's chunks are in the gzipped copy, once encoded.
        var chunks: ManifestChunks?
    }

    private init(json: sending StorageWriter, gz: sending StorageWriter, location: String) {
        files = Mutex(Files(json: json, gz: gz))
        self.location = location
    }

    deinit {
        files.withLock { files in
            files.json.discard()
            files.gz.discard()
        }
    }

    /// The SHA-1 of the JSON.
    var sha: String { files.withLock { $0.sha } }

    /// The description of the gzipped copy's chunks (`ManifestChunks`).
    var chunks: ManifestChunks { files.withLock { $0.chunks! } }

    /// Puts both files in place, create-only: a manifest's name is cached as immutable,
    /// and its version number was reserved for this writer alone.
    func commit() throws {
        try files.withLock { files in
            for writer in [files.json, files.gz] {
                guard try writer.commit(.ifAbsent) == .written else {
                    throw ZincError.versionFileExists("\(location)/\(writer.path)")
                }
            }
        }
    }

    /// Writes the manifest at `path` (and `path`.gz), both streamed as `encode` hands
    /// over the JSON.
    static func encode(
        _ path: String, in storage: CatalogStorage, _ encode: (([UInt8]) throws -> Void) throws -> Void
    ) throws -> EncodedManifest {
        let json = try storage.makeWriter(for: path)
        let gz: StorageWriter
        do { gz = try storage.makeWriter(for: path + ".gz") } catch {
            json.discard()
            throw error
        }
        let manifest = EncodedManifest(json: json, gz: gz, location: storage.location)
        try manifest.files.withLock { files in
            let (json, gz) = (files.json, files.gz)
            let compressor = try ChunkDeflater(ManifestChunks.scheme) { try gz.write($0) }
            let hasher = SHA1()
            let signed = SHA256()
            try encode { piece in
                try json.write(piece)
                try piece.withUnsafeBytes { try compressor.update($0) }
                hasher.update(piece)
                signed.update(piece)
            }
            try compressor.finish()
            files.sha = hasher.finalize()
            // The chunker's lengths are within its scheme: the description always forms.
            files.chunks = ManifestChunks(file: path + ".gz", chunks: compressor.chunks, sha256: signed.finalize())!
        }
        return manifest
    }
}
