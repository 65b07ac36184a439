/// Gives the versions of `bundle` (nil: every bundle) that have no chunk list one, for
/// their raw objects of `ContentChunker.threshold` bytes or more, read from the catalog:
/// how a catalog written before chunk lists lets clients fetch chunks of the objects old
/// clients may already cache, none of which is rewritten (`zinc add_chunk_lists`).
/// Gzipped objects written without flush points stay whole. A version of small files
/// gets no list. Runs beside imports, never beside a clean (the import lock, shared).
///
/// It has no plan: which versions get a list, and what it holds, is known only once
/// their objects are read and chunked, which is the whole work; ``run()`` does it.
public struct ChunkListBackfill: Sendable {
    private let catalog: Catalog
    private let bundle: String?

    /// - Parameters:
    ///   - catalog: the catalog whose versions get chunk lists.
    ///   - bundle: the bundle whose versions get lists; nil: every bundle.
    public init(_ catalog: Catalog, bundle: String? = nil) {
        self.catalog = catalog
        self.bundle = bundle
    }

    public func run() throws -> ChunkListBackfillReport {
        var report = ChunkListBackfillReport()
        var chunked = [SHA1.Digest: ObjectChunks]()
        report.written = try VersionDocumentBackfill(catalog: catalog, bundle: bundle).run(path: \.chunkList) { manifest in
            var list = ChunkList()
            for object in manifest.objects(flavor: nil).values {
                guard let size = object.contentSize, size >= ContentChunker.threshold else { continue }
                if chunked[object.digest] == nil {
                    chunked[object.digest] = try chunks(ofRaw: object)
                    report.chunkedObjects += 1
                    report.bytesRead += size
                }
                list.objects[object.digest] = chunked[object.digest]
            }
            return list.objects.isEmpty ? nil : list.encoded()
        }
        return report
    }

    /// The chunks of a raw object as stored, which must hash to its name.
    private func chunks(ofRaw object: StoredObject) throws -> ObjectChunks {
        let storage = catalog.storage
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
