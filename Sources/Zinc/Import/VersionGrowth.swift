/// What a new version adds to a catalog's storage, and what a player on the bundle's
/// version before downloads to reach it: the figures `update_bundle` and its
/// `--dry-run` give a release engineer, so that a version whose update is far larger
/// than its change is seen before it is published.
///
/// Storage counts what the version writes: the objects the catalog lacked, its
/// manifest (plain and gzipped), its chunk list, its other files (the LMFO record, the
/// content sizes of its gzipped objects, the description of its manifest's chunks), and
/// the archives it writes now. Under the `pointed` archive policy that is none:
/// `update_distro` writes them when a distribution is to name the version (see
/// `ArchivePolicy`). The update is priced as `zinc list --sizes` prices it (see
/// `VersionSize`): by the client's fetch plan, with chunk ranges for large objects.
public struct VersionGrowth: Equatable, Sendable {
    public let version: Int
    /// Objects the catalog lacked, and their stored bytes; in a preview, their bytes
    /// before compression: at most what the import stores.
    public let newObjects: Int
    public let objectBytes: Int64
    /// `manifests/B-V.json` and its `.gz`.
    public let manifestBytes: Int64
    /// `chunks/B-V.json.gz`; 0 for a version without large objects.
    public let chunkListBytes: Int64
    /// The version's other files (see `VersionFiles.documents`): the LMFO record, the
    /// content sizes of its gzipped objects and the description of its manifest's chunks.
    public let recordBytes: Int64
    /// The archives written with the version (all flavors').
    public let archiveBytes: Int64
    /// The update of a player on the bundle's previous version; nil for its first.
    public let update: VersionDiff?

    /// Everything the version adds.
    public var totalBytes: Int64 {
        [objectBytes, manifestBytes, chunkListBytes, recordBytes, archiveBytes].reduce(0) { sum, bytes in
            let (total, overflow) = sum.addingReportingOverflow(bytes)
            return overflow ? .max : total
        }
    }
}

extension VersionGrowth {
    /// The figures of version `version` of `bundle`, just imported: the files as stored,
    /// and the update from the version before as `list --sizes` gives it.
    /// `newObjects` and `objectBytes` are the import's (see `ImportSummary`): which objects
    /// a version brought is known only to the import that stored them.
    public init(of bundle: String, version: Int, in catalog: Catalog, newObjects: Int, objectBytes: Int64) throws {
        let files = VersionFiles(bundle: bundle, version: version)
        func size(_ paths: [String]) throws -> Int64 { try paths.reduce(0) { try $0 + (catalog.storage.size(of: $1) ?? 0) } }
        let named = [files.manifest, files.gzippedManifest, files.chunkList]
        let archives = try catalog.storage.list("archives").filter(files.isArchive)
        // A first version has no update to price: its manifest (perhaps of 100,000 files)
        // is not read again.
        let hasPrevious = try catalog.index().bundles[bundle]?.versions.contains { $0 < version } ?? false
        self.init(
            version: version, newObjects: newObjects, objectBytes: objectBytes,
            manifestBytes: try size([files.manifest, files.gzippedManifest]), chunkListBytes: try size([files.chunkList]),
            recordBytes: try size(files.documents.filter { !named.contains($0) }), archiveBytes: try size(archives),
            update: hasPrevious ? try VersionSize.sizes(in: catalog, bundle: bundle, versions: [version]).first?.update : nil)
    }
}

extension Catalog {
    /// The figures an import of `files` (with these digests and flavors) as the next
    /// version of `bundle` would have, written nowhere: the objects the catalog lacks
    /// (`newSizes`, their bytes before compression) taken as stored raw, so that their
    /// bytes, the archives' and the update's are at most what the import gives, and the
    /// large ones chunked as the import would chunk them.
    func previewGrowth(
        _ bundle: String, files: [SourceFile], digests: [SHA1.Digest], flavors: [[String]?], newSizes: [SHA1.Digest: Int64],
        previous: Manifest?, store: ObjectStore, includeMasterArchive: Bool
    ) throws -> VersionGrowth {
        let index = try index()
        let entry = index.bundles[bundle] ?? CatalogIndex.BundleEntry()
        let version = entry.nextVersion + 1
        let held = previous?.objectsByDigest(flavor: nil) ?? [:]
        var objects = [SHA1.Digest: StoredObject]()
        var list = ChunkList()
        let previousChunks = previous.flatMap(chunkList(of:))
        for (file, digest) in zip(files, digests) where objects[digest] == nil {
            let object: StoredObject
            if let size = newSizes[digest] {
                object = StoredObject(digest: digest, formats: [.raw: size])
                if size >= ContentChunker.threshold { list.objects[digest] = ObjectChunks(raw: try BundleImport.chunks(of: file)) }
            } else {
                object = try held[digest] ?? store.lookup(sha: digest.hex) ?? StoredObject(digest: digest, formats: [.raw: file.size])
                if let layout = previousChunks?.objects[digest], layout.fits(object) { list.objects[digest] = layout }
            }
            objects[digest] = object
        }
        var entries = [String: Manifest.Entry]()
        var sizes = ContentSizes()
        for (i, file) in files.enumerated() {
            let object = objects[digests[i]]!
            entries[file.relativePath] = Manifest.Entry(object: object, flavors: flavors[i])
            if ContentSizes.needsEntry(object) { sizes.sizes[object.digest] = file.size }
        }
        let manifest = Manifest(
            catalog: index.id, bundle: bundle, version: version, flavors: VersionDraft.firstSeen(flavors), files: entries)
        let json = manifest.encoded()
        // Stored as an import stores it: gzipped at its chunks, which a description gives.
        var gzippedBytes: Int64 = 0
        let deflater = try ChunkDeflater(ManifestChunks.scheme) { gzippedBytes += Int64($0.count) }
        try json.withUnsafeBytes { try deflater.update($0) }
        try deflater.finish()
        let signed = SHA256()
        signed.update(json)
        let description = ManifestChunks(
            file: VersionFiles(bundle: bundle, version: version).gzippedManifest, chunks: deflater.chunks, sha256: signed.finalize())!
        let scopes = Dictionary(
            uniqueKeysWithValues: ([nil] + manifest.flavors).map { scope in
                (scope, StoredObject.distinctSorted(Array(manifest.objectsByDigest(flavor: scope).values)))
            })
        let record = try lmfoRecord(
            bundle: bundle, version: version, earlierVersions: entry.versions, scopes: scopes.mapValues { $0.map(\.digest) })
        let writesArchives = try archivePolicy() == .all
        var archiveBytes: Int64 = 0
        for scope in writesArchives ? Catalog.archiveScopes(of: manifest, includeMasterArchive: includeMasterArchive) : [] {
            let members = Catalog.archiveMembers(ofDistinct: scopes[scope] ?? [], flavor: scope, record: record)
            archiveBytes += members.reduce(Int64(2 * TarHeader.blockSize)) { $0 + TarHeader.memberLength(size: $1.preferredSize) }
        }
        return VersionGrowth(
            version: version, newObjects: newSizes.count, objectBytes: newSizes.values.reduce(0, +),
            manifestBytes: Int64(json.count) + gzippedBytes,
            chunkListBytes: list.objects.isEmpty ? 0 : Int64(GzipCompressor.compress(list.encoded()).count),
            recordBytes: Int64(record.encoded().count + GzipCompressor.compress(description.encoded()).count)
                + (sizes.sizes.isEmpty ? 0 : Int64(GzipCompressor.compress(sizes.encoded()).count)),
            archiveBytes: archiveBytes,
            update: try previous.map {
                try VersionDiff(
                    from: $0, to: manifest, chunkLists: (previousChunks, list), archiveStored: writesArchives)
            })
    }
}
