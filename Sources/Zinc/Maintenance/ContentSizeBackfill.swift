/// Gives the versions of `bundle` (nil: every bundle) that have no sizes file one, for
/// their objects stored gzipped only, by reading those objects from the catalog: how a
/// catalog imported before sizes files lets `list --sizes` and `list_bundle --sizes` show
/// every content size (`zinc add_content_sizes`). Each object is read once, however many
/// versions share it, and must hash to its name. A version of raw objects alone gets no
/// file. Runs beside imports, never beside a clean (the import lock, shared).
///
/// It has no plan: what a file holds is known only once its objects are read, which is
/// the whole work; ``run()`` does it.
public struct ContentSizeBackfill: Sendable {
    private let catalog: Catalog
    private let bundle: String?

    /// - Parameters:
    ///   - catalog: the catalog whose versions get sizes files.
    ///   - bundle: the bundle whose versions get them; nil: every bundle.
    public init(_ catalog: Catalog, bundle: String? = nil) {
        self.catalog = catalog
        self.bundle = bundle
    }

    public func run() throws -> ContentSizeBackfillReport {
        var report = ContentSizeBackfillReport()
        var measured = [SHA1.Digest: Int64]()
        report.written = try VersionDocumentBackfill(catalog: catalog, bundle: bundle).run(path: \.contentSizes) { manifest in
            var sizes = ContentSizes()
            for object in manifest.objectsByDigest(flavor: nil).values where ContentSizes.needsEntry(object) {
                if measured[object.digest] == nil {
                    measured[object.digest] = try contentSize(ofGzipped: object)
                    report.measuredObjects += 1
                    report.bytesRead += object.sizes.gz
                }
                sizes.sizes[object.digest] = measured[object.digest]
            }
            return sizes.sizes.isEmpty ? nil : sizes.encoded()
        }
        return report
    }

    /// The content size of a gzipped object as stored, which must hash to its name.
    private func contentSize(ofGzipped object: StoredObject) throws -> Int64 {
        let storage = catalog.storage
        let path = StoredObject.path(digest: object.digest, format: .gz)
        guard let reader = try storage.openForReading(path) else {
            throw ZincError.objectVanished(sha: object.sha)
        }
        var size: Int64 = 0
        let decoder = StoredObjectDecoder(format: .gz) { size += Int64($0.count) }
        let location = storage.location + "/" + path
        do {
            try reader.forEachChunk { try decoder.update($0) }
            guard try decoder.finish() == object.sha else {
                throw ZincError.integrity(path: location, reason: "its content does not hash to its name (run verify)")
            }
        } catch let error as GzipDecompressor.Failure {
            throw ZincError.integrity(path: location, reason: "\(error) (run verify)")
        }
        return size
    }
}
