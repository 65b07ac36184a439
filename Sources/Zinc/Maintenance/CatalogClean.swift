#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Removes the manifests, archives and objects that no copy of the index refers to (an
/// archive also once no pointer names its version, see `ArchivePolicy`), temporary files
/// abandoned by writers and lock objects whose holders are gone.
///
/// An operation in two steps, like restic's prune: ``plan()`` decides what to remove and
/// what to keep (a ``CleanPlan``, which a dry run prints), and ``run(progress:)`` makes the
/// same plan and carries it out. Both hold the import lock exclusively throughout, and a
/// plan is only carried out under the lock it was made under: an import's objects are
/// referenced by no manifest until it commits, so a clean waits for running imports to
/// finish and keeps new ones out until it is done (an interrupted import's files are so
/// removed only once their writer is gone). The dry run's list is so exactly what a run
/// would remove at that moment.
///
/// A file is removed only once it has been unreferenced for `grace` (by the records
/// `delete_bundle`, `publish`, interrupted imports and earlier runs wrote, see
/// `RetirementRecords`): a client may still hold, for its cache lifetime, an index
/// that lists it. A run records when it first found each file unreferenced, so a later
/// run removes it. What any of the four index copies lists is kept, even in a copy an
/// interrupted writer left behind (clients may have read it); a run then repairs the
/// copies, so a later run can remove what only the lagging copy listed.
public struct CatalogClean: Sendable {
    /// A temporary file untouched for this long is abandoned whoever wrote it: writers
    /// commit or discard a file as soon as its last byte is written.
    public static let abandonedTemporaryAge: Duration = .seconds(3600)

    private let catalog: Catalog
    private let grace: Duration
    private let keeping: Set<String>

    /// - Parameters:
    ///   - catalog: the catalog to clean.
    ///   - grace: how long a file stays after it left the index.
    ///   - keeping: files never removed (`publish --delete` keeps what its source has).
    public init(_ catalog: Catalog, grace: Duration = Catalog.indexCacheLifetime, keeping: Set<String> = []) {
        self.catalog = catalog
        self.grace = grace
        self.keeping = keeping
    }

    /// What a run would remove and keep now: the dry run. Takes the import lock
    /// exclusively while it plans, as a run does.
    public func plan() throws -> CleanPlan {
        try plan(deleting: [], retiring: [])
    }

    /// Plans under the import lock, then removes what the plan says before releasing it;
    /// records when the waiting files were first found unreferenced, and repairs the
    /// index copies.
    public func run(progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> CleanReport {
        try catalog.storage.withImportLock(exclusive: true) { lock in
            let plan = try makePlan(referenced: CatalogReferences(catalog: catalog).files(), retiring: [])
            try carryOut(plan, holding: lock, progress: progress)
            return plan.report(removed: true)
        }
    }

    /// The plan of a clean that would follow deleting `versions` now, under the import
    /// lock: their files no longer referenced, and `retiring` recorded as leaving the
    /// index at this moment, as the deletion would record them (`prune --dry-run`).
    func plan(deleting versions: Set<BundleVersion>, retiring: [String]) throws -> CleanPlan {
        try catalog.storage.withImportLock(exclusive: true) { _ in
            try makePlan(referenced: CatalogReferences(catalog: catalog).files(excluding: versions), retiring: retiring)
        }
    }

    private func carryOut(
        _ plan: CleanPlan, holding lock: HeldLock, progress: (@Sendable (MaintenanceProgress) -> Void)?
    ) throws {
        let storage = catalog.storage
        try catalog.repairIndexCopies()
        try RetirementRecords(storage: storage).record(plan.unrecorded, at: plan.now)
        let counter = ProgressCounter<MaintenanceProgress>(
            .removing, totalItems: plan.removals.count,
            totalBytes: plan.removals.reduce(0) { $0 + $1.garbage.size }, report: progress)
        for (n, removal) in plan.removals.enumerated() {
            // A lock object must still be ours: an import may start once it looks stale.
            if n % Self.filesPerLockCheck == 0 { try lock.confirm() }
            switch removal {
            case .file(let file): try storage.delete(file.path)
            case .abandonedWrite(let write): try storage.discard(write)
            }
            counter.finishedItem(bytes: removal.garbage.size)
        }
        // Bookkeeping, not catalog content: removed without being reported.
        for record in plan.spentRecords { try storage.delete(record) }
    }

    /// How many files a run removes between two checks that it still holds its lock.
    private static let filesPerLockCheck = 256

    /// Plans a clean of everything but `referenced` and `keeping`. `retiring` are files
    /// taken to leave the index at this moment, as a deletion about to run would record
    /// them. The caller holds the import lock exclusively, or else (a dry run without
    /// write access, `publish --dry-run --delete`) accepts that a running import's
    /// objects show as removable; only `run` carries a plan out.
    func makePlan(referenced: Set<String>, retiring: [String]) throws -> CleanPlan {
        let storage = catalog.storage
        let now = WallClock.nowMilliseconds()
        let (records, damagedRecords) = try RetirementRecords(storage: storage).load(now: now)
        if !damagedRecords.isEmpty {
            catalog.logger.warning(
                "ignoring \(damagedRecords.count) unreadable record(s) of when files left the index, such as '\(storage.location)/\(damagedRecords[0])': their files wait as if they left it now"
            )
        }
        // When each file was first recorded out of the index, and whether every record
        // naming it says no index ever listed it; a file without a record is taken to
        // have left it now (and gets one, below, if it has to wait).
        var recordedAt = [String: Int64]()
        var neverListed = [String: Bool]()
        for record in records {
            for file in record.files {
                // An archive leaves use each time no pointer names its version any more,
                // and may be named again in between: its latest record says when it last left.
                recordedAt[file] =
                    file.hasPrefix("archives/")
                    ? max(recordedAt[file] ?? .min, record.time) : min(recordedAt[file] ?? .max, record.time)
                neverListed[file] = (neverListed[file] ?? true) && record.neverListed
            }
        }
        for file in retiring where recordedAt[file] == nil {
            recordedAt[file] = now
            neverListed[file] = false
        }
        // Writers commit objects, then archives, chunk lists and sizes files, then manifests;
        // removing in reverse means no remaining file ever refers to one already gone.
        var unreferenced = [String]()
        // A manifest's signatures go with it (before it: they are written after it), and
        // a digest list after the version signatures that cover it.
        for folder in [
            VersionSignature.folder, ManifestSignature.folder, DigestList.folder, LMFORecord.folder, "manifests", ManifestChunks.folder,
            ChunkList.folder, ContentSizes.folder, "archives", "objects",
        ] {
            unreferenced += try storage.list(folder).filter { path in
                !referenced.contains(SignedManifest.path(ofSignature: path) ?? path) && !keeping.contains(path)
            }
        }
        // An object leaves the index with the last retired manifest that names it (it
        // may have been reused, and retired again, since its own record), not at the
        // first clean that finds it; it was never listed only if neither it nor that
        // manifest ever was.
        var leftAt = recordedAt
        var knownNeverListed = neverListed
        // The files whose time comes from a record (theirs, or their manifest's).
        var timeRecorded = Set(recordedAt.keys)
        for (manifest, objects) in try objectsOfRetiredManifests(unreferenced) {
            for object in objects {
                if recordedAt[manifest] != nil { timeRecorded.insert(object) }
                // A manifest without a record may have left the index just now.
                leftAt[object] = max(leftAt[object] ?? .min, recordedAt[manifest] ?? now)
                if let manifestNeverListed = neverListed[manifest] {
                    knownNeverListed[object] = (neverListed[object] ?? true) && manifestNeverListed
                }
            }
        }
        // A signature without a record of its own left the index with its manifest.
        for path in unreferenced where leftAt[path] == nil {
            guard let manifest = SignedManifest.path(ofSignature: path), let time = leftAt[manifest] else { continue }
            leftAt[path] = time
            knownNeverListed[path] = knownNeverListed[manifest]
            if timeRecorded.contains(manifest) { timeRecorded.insert(path) }
        }
        // Clamped, so that no grace a user can type overflows the sums below.
        let graceMilliseconds = WallClock.milliseconds(min(grace, Self.longestGrace))
        let (removable, waiting) = unreferenced.reduce(into: ([String](), [String]())) { split, path in
            if now - (leftAt[path] ?? now) >= graceMilliseconds { split.0.append(path) } else { split.1.append(path) }
        }
        // A record is spent once each file it names is removable now, gone already, or
        // listed again; one naming a file that still waits (an object a later retired
        // manifest also named) keeps that file's earliest time.
        let stillWaiting = Set(waiting)
        let spent = records.filter { record in
            now - record.time >= graceMilliseconds && !record.files.contains(where: stillWaiting.contains)
        }.map(\.path)
        // Abandoned writes come sized by their listing.
        let removals: [CleanPlan.Removal] =
            try stillPresent(removable).map(CleanPlan.Removal.file)
            + storage.abandonedWrites(olderThan: Self.abandonedTemporaryAge).map(CleanPlan.Removal.abandonedWrite)
            + stillPresent(LockObjects(storage: storage, policy: storage.properties.lockPolicy).staleLocks()).map(CleanPlan.Removal.file)
        var groups = [CleanReport.Waiting]()
        for reason in [CleanReport.Waiting.Reason.leftIndex, .neverListed, .unrecorded] {
            let members = waiting.filter { path in
                switch reason {
                case .unrecorded: return !timeRecorded.contains(path)
                case .neverListed: return timeRecorded.contains(path) && knownNeverListed[path] == true
                case .leftIndex: return timeRecorded.contains(path) && knownNeverListed[path] != true
                }
            }
            let present = try stillPresent(members)
            guard !present.isEmpty else { continue }
            let times = present.map { leftAt[$0.path] ?? now }
            groups.append(
                CleanReport.Waiting(
                    reason: reason, files: present, since: Self.date(times.min()!),
                    until: Self.date(times.max()! + graceMilliseconds)))
        }
        return CleanPlan(
            now: now, removals: removals, waitingGroups: groups,
            unrecorded: waiting.filter { recordedAt[$0] == nil }, spentRecords: spent + damagedRecords)
    }

    /// The files of `paths` still stored, with their sizes: one that vanished since the
    /// listing (removed by another clean) is no longer garbage to report.
    private func stillPresent(_ paths: [String]) throws -> [CleanReport.Garbage] {
        try paths.compactMap { path in try catalog.storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) } }
    }

    /// A century: longer than any catalog's life, short enough to add to a time in milliseconds.
    private static let longestGrace: Duration = .seconds(100 * 365 * 86400)

    private static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The object files each unreferenced manifest (still stored) names, by manifest path.
    private func objectsOfRetiredManifests(_ unreferenced: [String]) throws -> [String: [String]] {
        let present = Set(unreferenced)
        var result = [String: [String]]()
        for path in unreferenced where path.hasPrefix("manifests/") && path.hasSuffix(".json") {
            let gz = path + ".gz"
            guard let bytes = try catalog.storage.read(path), let manifest = try? Manifest.parse(bytes, path: path) else { continue }
            let objects = manifest.files.values.flatMap { entry in
                entry.object.formats.keys.map { StoredObject.path(digest: entry.object.digest, format: $0) }
            }
            result[path] = objects
            if present.contains(gz) { result[gz] = objects }
        }
        return result
    }
}
