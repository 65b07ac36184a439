/// Gives the versions of `bundle` (nil: every bundle) that have no manifest chunk
/// description one (`zinc add_manifest_chunks`): their manifests, ordinary gzip, have no
/// flush points and are never rewritten (clients cache them as immutable), so a
/// chunk-deflated copy of each is written beside the description, which names it
/// (`ManifestChunks.copyPath`). Clients holding an earlier manifest then fetch these
/// versions' manifests as deltas. Runs beside imports, never beside a clean (the import
/// lock, shared).
public struct ManifestChunksBackfill: Sendable {
    private let catalog: Catalog
    private let bundle: String?

    /// - Parameters:
    ///   - catalog: the catalog whose versions get descriptions.
    ///   - bundle: the bundle whose versions get them; nil: every bundle.
    public init(_ catalog: Catalog, bundle: String? = nil) {
        self.catalog = catalog
        self.bundle = bundle
    }

    /// What a run wrote: each version's description and copy, in order.
    public struct Report: Equatable, Sendable {
        public var written: [String] = []
        /// Plain manifest bytes read and chunked.
        public var bytesRead: Int64 = 0
    }

    public func run() throws -> Report {
        if let bundle { try Names.validateBundleName(bundle) }
        let storage = catalog.storage
        let index = try catalog.index()
        let bundles = try bundle.map { [($0, try index.bundle($0))] } ?? index.bundles.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return try storage.withImportLock(exclusive: false) { _ in
            var report = Report()
            for (name, entry) in bundles {
                for version in entry.versions {
                    let files = VersionFiles(bundle: name, version: version)
                    guard try !storage.exists(files.manifestChunks) else { continue }
                    guard let plain = try storage.read(files.manifest) else {
                        throw ZincError.integrity(path: storage.location + "/" + files.manifest, reason: "missing (run verify)")
                    }
                    let (copy, description) = try ManifestChunks.deflated(plain, file: files.manifestChunksCopy)
                    report.bytesRead += Int64(plain.count)
                    // The copy, durable before the description that names it. A copy there
                    // already (a run stopped between the two) holds the same bytes.
                    if try storage.write(copy, to: files.manifestChunksCopy, .ifAbsent) == .written {
                        report.written.append(files.manifestChunksCopy)
                    }
                    try storage.flush()
                    if try storage.write(GzipCompressor.compress(description.encoded()), to: files.manifestChunks, .ifAbsent) == .written {
                        report.written.append(files.manifestChunks)
                    }
                }
            }
            try storage.flush()
            return report
        }
    }
}
