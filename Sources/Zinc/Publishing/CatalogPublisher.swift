#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `publish` does or, for a dry run, would do.
public struct PublishReport: Equatable, Sendable {
    /// Files copied (or to copy), in upload order; the index files are not among them.
    public let uploaded: [StorageEntry]
    /// Files already at the destination with the same content.
    public let unchanged: Int
    /// Whether the destination's index was (or would be) replaced.
    public let indexChanged: Bool
    /// Files removed by `--delete` (what the source no longer has).
    public let deleted: [StorageEntry]
    /// Files the source no longer has that stay for clients holding an older index,
    /// until `waitingUntil` (a later `publish --delete` or `clean --force` removes them).
    public let waiting: Int
    public let waitingUntil: Date?
    /// False for a dry run.
    public let performed: Bool

    public var uploadedBytes: Int64 { uploaded.reduce(0) { $0 + $1.size } }
    public var deletedBytes: Int64 { deleted.reduce(0) { $0 + $1.size } }

    /// The summary `publish --json` prints (its schema is in the README).
    public func json(seconds: Double) -> JSONValue {
        .object([
            "dry_run": .bool(!performed),
            "uploaded": .object(["files": .int(Int64(uploaded.count)), "bytes": .int(uploadedBytes)]),
            "unchanged": .int(Int64(unchanged)),
            "index_changed": .bool(indexChanged),
            "deleted": .object(["files": .int(Int64(deleted.count)), "bytes": .int(deletedBytes)]),
            "waiting": .int(Int64(waiting)),
            "seconds": .double((seconds * 1000).rounded() / 1000),
        ])
    }
}

/// How ``Catalog/publish(to:options:)`` copies a catalog.
public struct PublishOptions: Sendable {
    /// Only report what would be done.
    public var dryRun = false
    /// Remove from the destination what the source no longer has, once no index a
    /// client may still hold refers to it (see `grace`).
    public var delete = false
    /// How long a file stays at the destination after the index stopped listing it.
    public var grace = Catalog.indexCacheLifetime
    /// Uploads in flight at once; nil: the destination's `parallelRequests`.
    public var workers: Int?
    public var progress: (@Sendable (MaintenanceProgress) -> Void)?

    public init(
        dryRun: Bool = false, delete: Bool = false, grace: Duration = Catalog.indexCacheLifetime, workers: Int? = nil,
        progress: (@Sendable (MaintenanceProgress) -> Void)? = nil
    ) {
        self.dryRun = dryRun
        self.delete = delete
        self.grace = grace
        self.workers = workers
        self.progress = progress
    }
}

extension Catalog {
    /// Copies this catalog to `destination` (a bucket or a folder) so that a reader of
    /// the destination never finds an index referring to something missing: objects,
    /// archives, manifests, then flavorspecs and config, each batch durable before the
    /// next, and the index last, by compare-and-swap on the destination's commit point.
    ///
    /// Immutable files (objects, manifests, archives) the destination has with the same
    /// size are skipped; the others are compared by content, through the fingerprints
    /// the destination's listing carries where it has them (ETags), so an unchanged
    /// catalog costs a listing and nothing else. Bookkeeping of each store (lock objects,
    /// retirement records) is neither copied nor deleted. The destination's index is
    /// replaced only if every version it lists is in this catalog or was deleted from it,
    /// so a publish never drops versions another writer added there; that check runs
    /// before the first upload and again inside the compare-and-swap, which also
    /// catches a change made while the files went up.
    public func publish(to destination: CatalogStorage, options: PublishOptions = PublishOptions()) throws -> PublishReport {
        let source = try readIndex()
        let sourceEntries = try storage.entries(in: "").filter { Self.isPublished($0.path) }
        let present = Dictionary(try destination.entries(in: "").map { ($0.path, $0) }) { first, _ in first }
        let indexFiles = Self.indexFiles(for: source.bytes)
        let indexChanged = try indexFiles.contains { name, bytes in
            try !(present[name].map { try Self.holds(bytes, $0, at: destination) } ?? false)
        }
        if indexChanged, let current = try destination.read(Self.commitPoint) ?? destination.read("index.json") {
            // Before uploading anything into a destination this publish could not finish.
            try checkReplaceable(
                CatalogIndex.parse(current, path: destination.location + "/" + Self.commitPoint),
                at: destination, by: source.index)
        }
        var uploads = [StorageEntry]()
        var unchanged = 0
        for entry in sourceEntries {
            if let existing = present[entry.path], try sameContent(entry, existing, at: destination) {
                unchanged += 1
            } else {
                uploads.append(entry)
            }
        }
        let sourcePaths = Set(sourceEntries.map(\.path))
        let removable = present.values.filter { !sourcePaths.contains($0.path) && Self.isPublished($0.path) }
        guard !options.dryRun else {
            return PublishReport(
                uploaded: uploads, unchanged: unchanged, indexChanged: indexChanged,
                deleted: options.delete ? removable.sorted { $0.path < $1.path } : [],
                waiting: 0, waitingUntil: nil, performed: false)
        }
        try upload(uploads, to: destination, options: options)
        if indexChanged { try replaceIndex(of: destination, with: source.index) }
        guard options.delete else {
            return PublishReport(
                uploaded: uploads, unchanged: unchanged, indexChanged: indexChanged, deleted: [],
                waiting: 0, waitingUntil: nil, performed: true)
        }
        // Only now that the new index is in place. Catalog files go through the
        // destination's own clean, which keeps what an index published within its cache
        // lifetime may still list; the rest (flavorspecs, config) no index refers to.
        let target = try Catalog.open(destination, logger: logger)
        let cleaned = try target.clean(force: true, grace: options.grace, keeping: sourcePaths, progress: options.progress)
        var deleted = cleaned.files
            .filter { Self.isPublished($0.path) }
            .map { StorageEntry(path: $0.path, size: $0.size, fingerprint: nil) }
        for entry in removable where !Self.catalogFolders.contains(where: { entry.path.hasPrefix($0 + "/") }) {
            try destination.delete(entry.path)
            deleted.append(entry)
        }
        return PublishReport(
            uploaded: uploads, unchanged: unchanged, indexChanged: indexChanged, deleted: deleted,
            waiting: cleaned.waiting.count, waitingUntil: cleaned.waitingUntil, performed: true)
    }

    /// The folders whose files are named for their content or version and never change,
    /// in upload order. The rest, the index signature among it, follows them.
    private static let catalogFolders = [
        "objects", "archives", ChunkList.folder, LMFORecord.folder, "manifests", ManifestSignature.folder,
    ]

    /// Whether a file is catalog content to copy: not the index (written last, on its
    /// own terms) and not a store's own bookkeeping.
    private static func isPublished(_ path: String) -> Bool {
        !CatalogIndex.fileNames.contains(path) && !path.hasPrefix(LockObjects.folder + "/")
            && !path.hasPrefix(RetirementRecords.folder + "/")
    }

    /// Uploads in the order FORMAT.md asks for: objects, archives, manifests, then the
    /// rest, each batch flushed before the next one refers to it.
    private func upload(_ entries: [StorageEntry], to destination: CatalogStorage, options: PublishOptions) throws {
        let counter = ProgressCounter<MaintenanceProgress>(
            .uploading, totalItems: entries.count,
            totalBytes: entries.reduce(0) { $0 + $1.size }, report: options.progress)
        let batches =
            Self.catalogFolders.map { folder in entries.filter { $0.path.hasPrefix(folder + "/") } }
            + [entries.filter { entry in !Self.catalogFolders.contains { entry.path.hasPrefix($0 + "/") } }]
        for batch in batches where !batch.isEmpty {
            _ = try parallelMap(count: batch.count, workers: options.workers ?? destination.parallelRequests) { index in
                try copy(batch[index], to: destination)
                counter.finishedItem(bytes: batch[index].size)
            }
            try destination.flush()
        }
    }

    private func copy(_ entry: StorageEntry, to destination: CatalogStorage) throws {
        guard let reader = try storage.openForReading(entry.path) else {
            throw ZincError.publishSourceVanished("\(storage.location)/\(entry.path)")
        }
        let writer = try destination.makeWriter(for: entry.path)
        defer { writer.discard() }
        if let file = reader as? PosixFile {
            try writer.append(localFile: file)
        } else {
            try reader.forEachChunk { try writer.write($0) }
        }
        let immutable = Self.catalogFolders.contains { entry.path.hasPrefix($0 + "/") }
        if try writer.commit(immutable ? .ifAbsent : .always) == .conditionFailed {
            // Another publisher or writer created it meanwhile: only equal content is acceptable.
            guard try destination.size(of: entry.path) == entry.size else {
                throw ZincError.publishDestinationChanged("\(destination.location)/\(entry.path)")
            }
        }
    }

    /// Whether the destination's file holds what the source's does: for immutable
    /// files their size says it (their names are their content or version); others are
    /// compared by fingerprint, or else read.
    private func sameContent(_ entry: StorageEntry, _ existing: StorageEntry, at destination: CatalogStorage) throws -> Bool {
        guard entry.size == existing.size else {
            if Self.catalogFolders.contains(where: { entry.path.hasPrefix($0 + "/") }) {
                throw ZincError.publishDestinationDiffers(
                    destination: "\(destination.location)/\(entry.path)",
                    source: "\(storage.location)/\(entry.path)",
                    size: existing.size, expected: entry.size)
            }
            return false
        }
        if Self.catalogFolders.contains(where: { entry.path.hasPrefix($0 + "/") }) { return true }
        guard let bytes = try storage.read(entry.path) else { return false }
        return try Self.holds(bytes, existing, at: destination)
    }

    private static func holds(_ bytes: [UInt8], _ existing: StorageEntry, at destination: CatalogStorage) throws -> Bool {
        guard existing.size == Int64(bytes.count) else { return false }
        if let stored = existing.fingerprint, let expected = destination.fingerprint(of: bytes) { return stored == expected }
        return try destination.read(existing.path) == bytes
    }

    /// The four index files as this catalog's writers make them from the commit point.
    private static func indexFiles(for bytes: [UInt8]) -> [(String, [UInt8])] {
        let gz = GzipCompressor.compress(bytes)
        return CatalogIndex.fileNames.map { ($0, $0.hasSuffix(".gz") ? gz : bytes) }
    }

    /// Puts `index` at the destination by compare-and-swap, refusing to replace another
    /// catalog or to drop a version another writer added there.
    private func replaceIndex(of destination: CatalogStorage, with index: CatalogIndex) throws {
        guard try destination.exists(Self.commitPoint) || destination.exists("index.json") else {
            return try Catalog(storage: destination, config: config, logger: logger, allowsUnsignedChanges: true).createIndex(index)
        }
        // The index goes with the signature copied before it: nothing is signed here.
        try Catalog.open(destination, logger: logger, allowsUnsignedChanges: true).updateIndex { current in
            try checkReplaceable(current, at: destination, by: index)
            current = index
        }
    }

    /// A destination index may be replaced by `index` when it is the same catalog and
    /// every version it lists is one `index` lists or one this catalog numbered and
    /// deleted since (below its bundle's next version number). Any other version was
    /// added by another writer.
    private func checkReplaceable(_ current: CatalogIndex, at destination: CatalogStorage, by index: CatalogIndex) throws {
        guard current.id == index.id else {
            throw ZincError.publishDestinationIsOtherCatalog(destination: destination.location, id: current.id, expected: index.id)
        }
        var foreign = [String: [Int]]()
        for (name, bundle) in current.bundles {
            let ours = index.bundles[name]
            let kept = Set(ours?.versions ?? [])
            let versions = bundle.versions.filter { !kept.contains($0) && $0 >= (ours?.nextVersion ?? 1) }
            if !versions.isEmpty { foreign[name] = versions }
        }
        guard foreign.isEmpty else {
            throw ZincError.publishDestinationHasForeignVersions(
                destination: destination.location, source: storage.location,
                versions: foreign)
        }
    }
}
