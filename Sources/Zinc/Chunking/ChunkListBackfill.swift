/// What `addChunkLists` wrote.
public struct ChunkListBackfill: Equatable, Sendable {
    /// `chunks/B-V.json.gz` of each version that got one.
    public var written: [String] = []
    /// Raw objects read and chunked (each once, however many versions share it).
    public var chunkedObjects = 0
    public var bytesRead: Int64 = 0
}

extension Catalog {
    /// Gives the versions of `bundle` (nil: every bundle) that have no chunk list one,
    /// for their raw objects of `ContentChunker.threshold` bytes or more, read from the
    /// catalog: how a catalog written before chunk lists lets clients fetch chunks of
    /// the objects old clients may already cache, none of which is rewritten. Gzipped
    /// objects written without flush points stay whole. A version of small files gets no
    /// list. Runs beside imports, never beside `clean` (the import lock, shared).
    public func addChunkLists(bundle: String? = nil) throws -> ChunkListBackfill {
        if let bundle { try Names.validateBundleName(bundle) }
        let index = try self.index()
        let bundles = try bundle.map { [($0, try index.bundle($0))] } ?? index.bundles.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return try storage.withImportLock(exclusive: false) { _ in
            var report = ChunkListBackfill()
            var chunked = [SHA1.Digest: ObjectChunks]()
            for (name, entry) in bundles {
                for version in entry.versions {
                    let path = VersionFiles(bundle: name, version: version).chunkList
                    guard try !storage.exists(path) else { continue }
                    var list = ChunkList()
                    for object in try manifest(bundle: name, version: version).objects(flavor: nil).values {
                        guard let size = object.contentSize, size >= ContentChunker.threshold else { continue }
                        if chunked[object.digest] == nil {
                            chunked[object.digest] = try chunks(ofRaw: object)
                            report.chunkedObjects += 1
                            report.bytesRead += size
                        }
                        list.objects[object.digest] = chunked[object.digest]
                    }
                    guard !list.objects.isEmpty else { continue }
                    // Immutable once there: another run that wrote it first wrote the same.
                    if try storage.write(GzipCompressor.compress(list.encoded()), to: path, .ifAbsent) == .written {
                        report.written.append(path)
                    }
                }
            }
            try storage.flush()
            return report
        }
    }

    /// The chunks of a raw object as stored, which must hash to its name.
    private func chunks(ofRaw object: StoredObject) throws -> ObjectChunks {
        let path = StoredObject.path(digest: object.digest, format: .raw)
        guard let reader = try storage.openForReading(path) else {
            throw ZincError.objectVanished(sha: object.sha)
        }
        let whole = SHA1()
        var splitter = ChunkSplitter()
        try reader.forEachChunk { bytes in
            whole.update(bytes)
            splitter.update(bytes)
        }
        guard whole.digest() == object.digest, let layout = ObjectChunks(raw: splitter.finish()), layout.fits(object) else {
            throw ZincError.integrity(path: storage.location + "/" + path, reason: "its content does not hash to its name (run verify)")
        }
        return layout
    }
}
