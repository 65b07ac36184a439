#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `clean` found, and whether it removed it.
public struct CleanReport: Equatable, Sendable {
    /// A file no committed version refers to.
    public struct Garbage: Equatable, Sendable {
        public let path: String
        public let size: Int64
    }

    /// Files kept for now, of one kind, and what they wait for.
    public struct Waiting: Equatable, Sendable {
        /// What is known of how the files came to be out of the index.
        public enum Reason: Equatable, Sendable {
            /// A record says when the index stopped listing them.
            case leftIndex
            /// An interrupted import wrote them and never committed them: no index
            /// listed them. Kept for the grace period from the interruption.
            case neverListed
            /// No record says when they left the index (or whether it ever listed them):
            /// they are taken to have left it now, and recorded so by a forced run.
            case unrecorded
        }

        public let reason: Reason
        public let files: [Garbage]
        /// The earliest time of the group (when its first file left the index, or was
        /// left by its import; now for `unrecorded`).
        public let since: Date
        /// When the last of them may be removed.
        public let until: Date

        public var bytes: Int64 { files.reduce(0) { $0 + $1.size } }
    }

    /// In removal order: manifest signatures, LMFO records, manifests, archives, objects, then abandoned temporary files
    /// and stale lock objects.
    public let files: [Garbage]
    /// Unreferenced files out of the index for less than the grace period: a client may
    /// still hold an index that lists them. They stay until `waitingUntil`.
    public let waiting: [Garbage]
    /// `waiting` by reason, in the order of `Waiting.Reason`'s cases; groups are never empty.
    public let waitingGroups: [Waiting]
    /// When the last of `waiting` may be removed; nil when nothing waits.
    public let waitingUntil: Date?
    /// False for a dry run.
    public let removed: Bool

    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }
    public var waitingBytes: Int64 { waiting.reduce(0) { $0 + $1.size } }
}

extension Catalog {
    /// A temporary file untouched for this long is abandoned whoever wrote it: writers
    /// commit or discard a file as soon as its last byte is written.
    public static let abandonedTemporaryAge: Duration = .seconds(3600)

    /// How long a client or CDN may keep a copy of the index: the `max-age` FORMAT.md
    /// asks hosts to serve the four index files with. `clean` keeps what left the index
    /// for at least this long.
    public static let indexCacheLifetime: Duration = .seconds(300)

    /// Finds the manifests, archives and objects that no copy of the index refers to,
    /// temporary files abandoned by writers and lock objects whose holders are gone;
    /// removes them when `force`, else only reports.
    ///
    /// A file is removed only once it has been unreferenced for `grace` (by the records
    /// `delete_bundle`, `publish`, interrupted imports and earlier runs wrote, see
    /// `RetirementRecords`): a client may still hold, for its cache lifetime, an index
    /// that lists it. A forced run records when it first found each file unreferenced,
    /// so a later run removes it.
    ///
    /// Holds the import lock exclusively throughout: an import's objects are referenced
    /// by no manifest until it commits, so `clean` waits for running imports to finish
    /// and keeps new ones out until it is done (an interrupted import's files are so
    /// removed only once their writer is gone). The dry run takes it too, and runs the
    /// same plan, so its list is exactly what a forced run would remove at that moment.
    /// What any of the four index copies lists is kept, even in a copy an interrupted
    /// writer left behind (clients may have read it); a forced run then repairs the
    /// copies, so a later run can remove what only the lagging copy listed.
    ///
    /// Files in `keeping` are never removed (`publish --delete` keeps what its source has).
    public func clean(
        force: Bool = false, grace: Duration = Catalog.indexCacheLifetime, keeping: Set<String> = [],
        progress: (@Sendable (MaintenanceProgress) -> Void)? = nil
    ) throws -> CleanReport {
        try storage.withImportLock(exclusive: true) { lock in
            let plan = try planClean(referenced: referencedFiles(), grace: grace, keeping: keeping)
            guard force else { return plan.report(removed: false) }
            try repairIndexCopies()
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
            return plan.report(removed: true)
        }
    }

    /// What a clean removes and keeps, decided before anything changes; `clean` carries
    /// it out, and a dry run (of `clean` or `prune`) reports it.
    struct CleanPlan {
        /// One thing to remove: a file by its path, or a write never committed by its handle.
        enum Removal {
            case file(CleanReport.Garbage)
            case abandonedWrite(AbandonedWrite)

            /// How the report shows it.
            var garbage: CleanReport.Garbage {
                switch self {
                case .file(let file): return file
                case .abandonedWrite(let write): return CleanReport.Garbage(path: write.displayPath, size: write.size)
                }
            }
        }

        let now: Int64
        /// Removable now, in removal order.
        let removals: [Removal]
        let waitingGroups: [CleanReport.Waiting]
        /// Waiting files no record names yet: a forced run records them at `now`.
        let unrecorded: [String]
        /// Records every file of which is gone, removable or listed again, and damaged ones.
        let spentRecords: [String]

        func report(removed: Bool) -> CleanReport {
            CleanReport(
                files: removals.map(\.garbage), waiting: waitingGroups.flatMap(\.files), waitingGroups: waitingGroups,
                waitingUntil: waitingGroups.map(\.until).max(), removed: removed)
        }
    }

    /// Plans a clean of everything but `referenced` and `keeping`. `retiring` are files
    /// taken to leave the index at this moment, as a deletion about to run would record
    /// them (`prune --dry-run`). The caller holds the import lock exclusively, or else
    /// (a dry run without write access) accepts that a running import's objects show as
    /// removable.
    func planClean(
        referenced: Set<String>, grace: Duration, keeping: Set<String> = [], retiring: [String] = []
    ) throws -> CleanPlan {
        let now = WallClock.nowMilliseconds()
        let (records, damagedRecords) = try RetirementRecords(storage: storage).load(now: now)
        if !damagedRecords.isEmpty {
            logger.warning(
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
                recordedAt[file] = min(recordedAt[file] ?? .max, record.time)
                neverListed[file] = (neverListed[file] ?? true) && record.neverListed
            }
        }
        for file in retiring where recordedAt[file] == nil {
            recordedAt[file] = now
            neverListed[file] = false
        }
        // Writers commit objects, then archives and chunk lists, then manifests;
        // removing in reverse means no remaining file ever refers to one already gone.
        var unreferenced = [String]()
        // A manifest's signatures go with it (before it: they are written after it).
        for folder in [ManifestSignature.folder, LMFORecord.folder, "manifests", ChunkList.folder, "archives", "objects"] {
            unreferenced += try storage.list(folder).filter { path in
                !referenced.contains(ManifestSignature.manifestPath(ofSignature: path) ?? path) && !keeping.contains(path)
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
            guard let manifest = ManifestSignature.manifestPath(ofSignature: path), let time = leftAt[manifest] else { continue }
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
            + stillPresent(LockObjects(storage: storage, policy: storage.lockPolicy).staleLocks()).map(CleanPlan.Removal.file)
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
        try paths.compactMap { path in try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) } }
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
            guard let bytes = try storage.read(path), let manifest = try? Manifest.parse(bytes, path: path) else { continue }
            let objects = manifest.files.values.flatMap { entry in
                entry.object.formats.keys.map { StoredObject.path(digest: entry.object.digest, format: $0) }
            }
            result[path] = objects
            if present.contains(gz) { result[gz] = objects }
        }
        return result
    }

    /// How many files `clean` removes between two checks that it still holds its lock.
    private static let filesPerLockCheck = 256

    /// Every manifest, archive and object file that a version listed by any copy of the
    /// index refers to. A manifest removed after the copies were read (by a tool that
    /// deletes versions at once) is skipped once no copy lists its version any more.
    /// Every file a version some copy of the index lists refers to, leaving out the
    /// versions in `excluding` (what a deletion would leave referenced).
    func referencedFiles(excluding: Set<BundleVersion> = []) throws -> Set<String> {
        var listed = Set<BundleVersion>()
        for copy in try indexCopies() {
            for (name, bundle) in copy.bundles {
                for version in bundle.versions { listed.insert(BundleVersion(bundle: name, version: version)) }
            }
        }
        var referenced = Set<String>()
        for item in listed.subtracting(excluding) {
            let manifest: Manifest
            do {
                manifest = try self.manifest(bundle: item.bundle, version: item.version)
            } catch {
                let stillListed = try indexCopies().contains { $0.bundles[item.bundle]?.versions.contains(item.version) == true }
                if !stillListed { continue }
                // Without it, the objects this version uses are unknown: removing nothing is the only safe answer.
                throw ZincError.integrity(
                    path: storage.location + "/" + Manifest.path(bundle: item.bundle, version: item.version),
                    reason: "\(error); clean removed nothing (run verify)")
            }
            referenced.formUnion(Self.files(of: manifest))
        }
        return referenced
    }

    /// The files a version's manifest makes part of the catalog: the manifest itself,
    /// its chunk list and LMFO record, its archives (any that may exist) and its objects.
    static func files(of manifest: Manifest) -> Set<String> {
        var files = Set(VersionFiles(of: manifest).all(archiveScopes: [nil] + manifest.flavors))
        for entry in manifest.files.values {
            let object = entry.object
            if object.sizes.gz >= 0 { files.insert(StoredObject.path(digest: object.digest, format: .gz)) }
            if object.sizes.raw >= 0 { files.insert(StoredObject.path(digest: object.digest, format: .raw)) }
        }
        return files
    }
}

/// A version of a bundle.
struct BundleVersion: Hashable {
    let bundle: String
    let version: Int
}
