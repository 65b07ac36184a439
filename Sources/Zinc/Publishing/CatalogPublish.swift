#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Copies a catalog to `destination` (a bucket or a folder) so that a reader of
/// the destination never finds an index referring to something missing: objects,
/// archives, manifests, then flavorspecs and config, each batch durable before the
/// next, and the index last, by compare-and-swap on the destination's commit point.
///
/// Immutable files (objects, manifests, archives) the destination has with the same
/// size are skipped; the others are compared by content, through the fingerprints
/// the destination's listing carries where it has them (ETags), so an unchanged
/// catalog costs a listing and nothing else. Bookkeeping of each store (lock objects,
/// retirement records) is neither copied nor deleted. The destination's index is
/// replaced only if every version it lists is in the catalog or was deleted from it,
/// so a publish never drops versions another writer added there; that check runs
/// before the first upload and again inside the compare-and-swap, which also
/// catches a change made while the files went up.
///
/// Once the index is replaced, the files of the versions it no longer lists are
/// recorded at the destination as having left its index then (a `retired/` record,
/// see `RetirementRecords`), with or without `delete`: a later `--delete` run or
/// `clean` counts their grace period from that moment. A destination published by
/// an older tool has no such record; its files count from the first run that finds
/// them.
///
/// ``plan()`` (the dry run) changes nothing and says what a run would upload, whether it
/// would replace the index, and, with `delete`, what the destination's clean would remove
/// once the new index is in place (a ``PublishPlan``). ``run(progress:)`` makes the same
/// plan and carries it out: the check that the destination's index may be replaced runs
/// again inside the compare-and-swap that replaces it, and the destination's clean plans
/// under its import lock (see ``CatalogClean``), so nothing is carried out from a plan
/// another writer has made stale.
public struct CatalogPublish: Sendable {
    private let catalog: Catalog
    private let destination: CatalogStorage
    private let delete: Bool
    private let grace: Duration
    private let workers: Int?

    /// - Parameters:
    ///   - catalog: the catalog to publish.
    ///   - destination: where the catalog is copied to: a bucket or a folder.
    ///   - delete: remove from the destination what the source no longer has, once no
    ///     index a client may still hold refers to it (see `grace`).
    ///   - grace: how long a file stays at the destination after the index stopped
    ///     listing it.
    ///   - workers: uploads in flight at once; nil: the destination's `parallelRequests`.
    public init(
        _ catalog: Catalog, to destination: CatalogStorage, delete: Bool = false, grace: Duration = Catalog.indexCacheLifetime,
        workers: Int? = nil
    ) {
        self.catalog = catalog
        self.destination = destination
        self.delete = delete
        self.grace = grace
        self.workers = workers
    }

    private var storage: CatalogStorage { catalog.storage }

    /// What a run would upload now and, with `delete`, what the destination's clean would
    /// remove and keep once the new index is in place, planned by the same code as that
    /// clean, with the versions the new index drops taken to leave it now.
    public func plan() throws -> PublishPlan {
        let plan = try transfer()
        let keepsAll = try catalog.archivePolicy() == .all
        let candidates = try catalog.rolloutCandidates(in: plan.source)
        let retired =
            plan.destinationIndex.map {
                Self.filesOfVersions(
                    in: $0, notIn: plan.source, among: Array(plan.present.keys), keepsAll: keepsAll, rolloutCandidates: candidates)
            }
            ?? []
        let destinationIsCatalog = plan.present[Catalog.commitPoint] != nil || plan.present["index.json"] != nil
        var deleted = [StorageEntry]()
        var clean: CleanPlan?
        if delete, destinationIsCatalog {
            let target = try Catalog.open(destination, logger: catalog.logger)
            let referenced = try plan.indexChanged ? filesReferenced(by: plan.source) : CatalogReferences(catalog: target).files()
            // Without the destination's import lock, which is a write: a dry run may be
            // made with read-only access. The objects of an import running there meanwhile
            // would show as removable here; the real run's clean waits for it and keeps them.
            let destinationClean = try CatalogClean(target, grace: grace, keeping: plan.sourcePaths)
                .makePlan(referenced: referenced, retiring: retired)
            clean = destinationClean
            deleted = Self.published(destinationClean.report.files) + plan.uncataloged
        } else if delete {
            deleted = plan.uncataloged
        }
        return PublishPlan(
            uploads: plan.uploads, assemblies: plan.assemblies.values.sorted { $0.path < $1.path }, unchanged: plan.unchanged,
            indexChanged: plan.indexChanged, retired: retired, clean: clean, deleted: deleted)
    }

    public func run(progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> PublishReport {
        let plan = try transfer()
        try discardAbandonedWrites()
        let assembled = try upload(plan.uploads, assemblies: plan.assemblies, progress: progress)
        var retired = [String]()
        if plan.indexChanged, let replaced = try replaceIndex(with: plan.source) {
            // From now on no client reading the destination gets an index listing these:
            // their grace period starts here, whenever a `--delete` run comes.
            retired = Self.filesOfVersions(
                in: replaced, notIn: plan.source, among: Array(plan.present.keys), keepsAll: try catalog.archivePolicy() == .all,
                rolloutCandidates: try catalog.rolloutCandidates(in: plan.source))
            try RetirementRecords(storage: destination).record(retired)
        }
        guard delete else {
            return PublishReport(
                uploaded: plan.uploads, assembled: assembled.files, copiedBytes: assembled.bytes, unchanged: plan.unchanged,
                indexChanged: plan.indexChanged, deleted: [],
                waiting: 0, waitingUntil: nil, waitingGroups: [], retired: retired, performed: true)
        }
        // Only now that the new index is in place. Catalog files go through the
        // destination's own clean, which keeps what an index published within its cache
        // lifetime may still list; the rest (flavorspecs, config) no index refers to.
        let target = try Catalog.open(destination, logger: catalog.logger)
        let cleaned = try CatalogClean(target, grace: grace, keeping: plan.sourcePaths).run(progress: progress)
        var deleted = Self.published(cleaned.files)
        for entry in plan.uncataloged {
            try destination.delete(entry.path)
            deleted.append(entry)
        }
        return PublishReport(
            uploaded: plan.uploads, assembled: assembled.files, copiedBytes: assembled.bytes, unchanged: plan.unchanged,
            indexChanged: plan.indexChanged, deleted: deleted,
            waiting: cleaned.waiting.count, waitingUntil: cleaned.waitingUntil, waitingGroups: cleaned.waitingGroups,
            retired: retired, performed: true)
    }

    /// What a publish uploads and may delete, decided from one listing of each side
    /// before anything is written: what a run carries out, and a plan reports.
    private struct Transfer {
        /// The source's index, which replaces the destination's.
        let source: CatalogIndex
        let uploads: [StorageEntry]
        /// How the uploads whose bytes are mostly at the destination are assembled there, by path.
        let assemblies: [String: AssemblyPlan]
        let unchanged: Int
        let indexChanged: Bool
        /// Every file the source publishes: never deleted at the destination.
        let sourcePaths: Set<String>
        /// The destination's index as it is, when this publish replaces it (nil when the
        /// destination has none, or holds the source's already).
        let destinationIndex: CatalogIndex?
        /// Files the destination has and the source lacks outside the catalog's folders
        /// (flavorspecs, config): no index refers to them, `--delete` removes them at once.
        let uncataloged: [StorageEntry]
        /// The destination's listing.
        let present: [String: StorageEntry]
    }

    private func transfer() throws -> Transfer {
        let source = try catalog.readIndex()
        let sourceEntries = try storage.entries(in: "").filter { Self.isPublished($0.path) }
        let present = Dictionary(try destination.entries(in: "").map { ($0.path, $0) }) { first, _ in first }
        let indexFiles = Self.indexFiles(for: source.bytes)
        let indexChanged = try indexFiles.contains { name, bytes in
            try !(present[name].map { try Self.holds(bytes, $0, at: destination) } ?? false)
        }
        // Read only when it is to be replaced: an unchanged catalog costs a listing alone.
        var destinationIndex: CatalogIndex?
        if indexChanged, let current = try destination.read(Catalog.commitPoint) ?? destination.read("index.json") {
            let index = try CatalogIndex.parse(current, path: destination.location + "/" + Catalog.commitPoint)
            // Before uploading anything into a destination this publish could not finish.
            try checkReplaceable(index, by: source.index)
            destinationIndex = index
        }
        var uploads = [StorageEntry]()
        var unchanged = 0
        for entry in sourceEntries {
            if let existing = present[entry.path], try sameContent(entry, existing) {
                unchanged += 1
            } else {
                uploads.append(entry)
            }
        }
        let sourcePaths = Set(sourceEntries.map(\.path))
        let uncataloged = present.values.filter { entry in
            !sourcePaths.contains(entry.path) && Self.isPublished(entry.path)
                && !Self.catalogFolders.contains { entry.path.hasPrefix($0 + "/") }
        }
        return Transfer(
            source: source.index, uploads: uploads,
            assemblies: try assemblies(of: uploads, index: source.index, present: present), unchanged: unchanged,
            indexChanged: indexChanged,
            sourcePaths: sourcePaths, destinationIndex: destinationIndex,
            uncataloged: uncataloged.sorted { $0.path < $1.path }, present: present)
    }

    /// How the uploads a destination that assembles files could put together mostly from
    /// bytes it holds would be assembled there (see ``AssemblySources``); none for other
    /// destinations, or a source whose files are not local.
    private func assemblies(of uploads: [StorageEntry], index: CatalogIndex, present: [String: StorageEntry]) throws
        -> [String: AssemblyPlan]
    {
        guard let assembling = destination as? AssemblingStorage, !storage.properties.isRemote else { return [:] }
        let limits = assembling.assemblyLimits
        let sources = AssemblySources(catalog: catalog, index: index, present: present, uploads: uploads)
        var plans = [String: AssemblyPlan]()
        // Below twice the smallest part, at least half of it would be sent anyway.
        for entry in uploads where entry.size >= 2 * limits.minimumPart {
            let copies = try sources.copies(for: entry)
            if !copies.isEmpty, let plan = AssemblyPlan(path: entry.path, size: entry.size, copies: copies, limits: limits) {
                plans[entry.path] = plan
            }
        }
        return plans
    }

    /// Removes what writers killed over an hour ago left at the destination (the parts of
    /// multipart uploads, temporary objects), as `clean` does: a publish killed midway
    /// leaves them, and the next publish would otherwise leave them billed until a clean.
    /// A destination that does not let this run list them only says so.
    private func discardAbandonedWrites() throws {
        let abandoned: [AbandonedWrite]
        do {
            abandoned = try destination.abandonedWrites(olderThan: CatalogClean.abandonedTemporaryAge)
        } catch let error as ZincError {
            catalog.logger.notice("\(error); abandoned uploads there stay until a clean removes them")
            return
        }
        for write in abandoned { try destination.discard(write) }
    }

    /// What a clean reports removing, as entries of the destination, without the store's
    /// own bookkeeping (stale lock objects).
    private static func published(_ files: [CleanReport.Garbage]) -> [StorageEntry] {
        files.filter { isPublished($0.path) }.map { StorageEntry(path: $0.path, size: $0.size, fingerprint: nil) }
    }

    /// Every file the source's copy of `index` makes part of the catalog (archives while
    /// in use, by a pointer or a rollout: see `CatalogReferences`).
    private func filesReferenced(by index: CatalogIndex) throws -> Set<String> {
        let keepsAll = try catalog.archivePolicy() == .all
        let pointed = index.pointedVersions.union(try catalog.rolloutCandidates(in: index))
        var files = Set<String>()
        for (name, bundle) in index.bundles {
            for version in bundle.versions {
                let inUse = keepsAll || pointed.contains(BundleVersion(bundle: name, version: version))
                files.formUnion(CatalogReferences.files(of: try catalog.manifest(bundle: name, version: version), withArchives: inUse))
            }
        }
        return files
    }

    /// The documents, archives and manifest signatures, among `paths`, of the versions
    /// `old` lists and `new` does not, and (unless the source keeps every archive) the
    /// archives of the versions `old` points at and neither `new` nor a rollout's
    /// `rolloutCandidates` does. Version numbers are
    /// never reused, so none of these documents can be listed again; their objects follow
    /// them out of the index (see `clean`).
    private static func filesOfVersions(
        in old: CatalogIndex, notIn new: CatalogIndex, among paths: [String], keepsAll: Bool,
        rolloutCandidates: Set<BundleVersion>
    ) -> [String] {
        var dropped = [VersionFiles]()
        for (name, bundle) in old.bundles {
            let kept = Set(new.bundles[name]?.versions ?? [])
            dropped += bundle.versions.filter { !kept.contains($0) }.map { VersionFiles(bundle: name, version: $0) }
        }
        let unpointed =
            keepsAll
            ? []
            : old.pointedVersions.subtracting(new.pointedVersions).subtracting(rolloutCandidates).map {
                VersionFiles(bundle: $0.bundle, version: $0.version)
            }
        guard !dropped.isEmpty || !unpointed.isEmpty else { return [] }
        let manifests = Set(dropped.map(\.manifest))
        return paths.filter { path in
            dropped.contains { version in version.documents.contains(path) || version.isArchive(path) }
                || unpointed.contains { $0.isArchive(path) }
                || SignedManifest.path(ofSignature: path).map(manifests.contains) == true
        }.sorted()
    }

    /// The folders whose files are named for their content or version and never change,
    /// in upload order. The rest, the index signature among it, follows them.
    private static let catalogFolders = [
        "objects", "archives", ChunkList.folder, ContentSizes.folder, LMFORecord.folder, ManifestChunks.folder, DigestList.folder,
        "manifests", ManifestSignature.folder, VersionSignature.folder,
    ]

    /// Whether a file is catalog content to copy: not the index (written last, on its
    /// own terms) and not a store's own bookkeeping.
    private static func isPublished(_ path: String) -> Bool {
        !CatalogIndex.fileNames.contains(path) && !path.hasPrefix(LockObjects.folder + "/")
            && !path.hasPrefix(RetirementRecords.folder + "/")
    }

    /// Uploads in the order FORMAT.md asks for: objects, archives, manifests, then the
    /// rest, each batch flushed before the next one refers to it. Returns how many files
    /// were assembled at the destination, and the bytes copied there for them.
    private func upload(
        _ entries: [StorageEntry], assemblies: [String: AssemblyPlan], progress: (@Sendable (MaintenanceProgress) -> Void)?
    ) throws -> (files: Int, bytes: Int64) {
        let tally = AssemblyTally()
        let counter = ProgressCounter<MaintenanceProgress>(
            .uploading, totalItems: entries.count,
            totalBytes: entries.reduce(0) { $0 + $1.size }, report: progress)
        let batches =
            Self.catalogFolders.map { folder in entries.filter { $0.path.hasPrefix(folder + "/") } }
            + [entries.filter { entry in !Self.catalogFolders.contains { entry.path.hasPrefix($0 + "/") } }]
        for batch in batches where !batch.isEmpty {
            _ = try parallelMap(count: batch.count, workers: workers ?? destination.properties.parallelRequests) { index in
                try copy(batch[index], assembly: assemblies[batch[index].path], tally: tally)
                counter.finishedItem(bytes: batch[index].size)
            }
            try destination.flush()
        }
        return tally.assembled
    }

    private func copy(_ entry: StorageEntry, assembly: AssemblyPlan?, tally: AssemblyTally) throws {
        guard let reader = try storage.openForReading(entry.path) else {
            throw ZincError.publishSourceVanished("\(storage.location)/\(entry.path)")
        }
        if let assembly, let assembling = destination as? AssemblingStorage, let file = reader as? PosixFile,
            let result = try tally.settle(
                assembling.assemble(assembly, from: file, condition: .ifAbsent), of: assembly, in: destination, logger: catalog.logger)
        {
            if result == .conditionFailed { try acceptExisting(entry) }
            return
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
            try acceptExisting(entry)
        }
    }

    /// Another publisher or writer created the file meanwhile: only equal content is acceptable.
    private func acceptExisting(_ entry: StorageEntry) throws {
        guard try destination.size(of: entry.path) == entry.size else {
            throw ZincError.publishDestinationChanged("\(destination.location)/\(entry.path)")
        }
    }

    /// Whether the destination's file holds what the source's does: for immutable
    /// files their size says it (their names are their content or version); others are
    /// compared by fingerprint, or else read.
    private func sameContent(_ entry: StorageEntry, _ existing: StorageEntry) throws -> Bool {
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
    /// catalog or to drop a version another writer added there. Returns the index it
    /// replaced (nil when the destination had none).
    private func replaceIndex(with index: CatalogIndex) throws -> CatalogIndex? {
        guard try destination.exists(Catalog.commitPoint) || destination.exists("index.json") else {
            try Catalog(storage: destination, config: catalog.config, logger: catalog.logger, allowsUnsignedChanges: true).createIndex(
                index)
            return nil
        }
        // The index goes with the signature copied before it: nothing is signed here.
        var replaced: CatalogIndex?
        try Catalog.open(destination, logger: catalog.logger, allowsUnsignedChanges: true).updateIndex { current in
            try checkReplaceable(current, by: index)
            replaced = current
            current = index
        }
        return replaced
    }

    /// A destination index may be replaced by `index` when it is the same catalog and
    /// every version it lists is one `index` lists or one this catalog numbered and
    /// deleted since (at most its bundle's `next_version`, which is, despite the name,
    /// the highest number handed out). Any other version was added by another writer.
    private func checkReplaceable(_ current: CatalogIndex, by index: CatalogIndex) throws {
        guard current.id == index.id else {
            throw ZincError.publishDestinationIsOtherCatalog(destination: destination.location, id: current.id, expected: index.id)
        }
        var foreign = [String: [Int]]()
        for (name, bundle) in current.bundles {
            let ours = index.bundles[name]
            let kept = Set(ours?.versions ?? [])
            let versions = bundle.versions.filter { !kept.contains($0) && $0 > (ours?.nextVersion ?? 0) }
            if !versions.isEmpty { foreign[name] = versions }
        }
        guard foreign.isEmpty else {
            throw ZincError.publishDestinationHasForeignVersions(
                destination: destination.location, source: storage.location,
                versions: foreign)
        }
    }
}
