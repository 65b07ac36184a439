/// A version's manifest and its gzipped copy, written but not yet in place: `commit`
/// puts them there, and dropped before that they are discarded. Encoding a manifest of
/// 100,000 files (JSON, gzip, SHA-1) takes a core for a quarter of a second, which it
/// can spend while the archives, mostly waiting for the disk, are written; FORMAT only
/// wants the manifest in place after them.
final class EncodedManifest {
    private let json: StorageWriter
    private let gz: StorageWriter
    private let location: String
    /// The SHA-1 of the JSON.
    private(set) var sha = ""

    private init(json: StorageWriter, gz: StorageWriter, location: String) {
        self.json = json
        self.gz = gz
        self.location = location
    }

    deinit {
        json.discard()
        gz.discard()
    }

    /// Puts both files in place, create-only: a manifest's name is cached as immutable,
    /// and its version number was reserved for this writer alone.
    func commit() throws {
        for writer in [json, gz] {
            guard try writer.commit(.ifAbsent) == .written else {
                throw ZincError.versionFileExists("\(location)/\(writer.path)")
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
        let compressor = GzipCompressor { try gz.write($0) }
        let hasher = SHA1()
        try encode { piece in
            try json.write(piece)
            try piece.withUnsafeBytes { try compressor.update($0) }
            hasher.update(piece)
        }
        try compressor.finish()
        manifest.sha = hasher.finalize()
        return manifest
    }
}
