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

    /// In removal order: manifest signatures, LMFO records, manifests, archives, objects, then abandoned temporary files
    /// and stale lock objects.
    public let files: [Garbage]
    /// Unreferenced files that left the index less than the grace period ago: a client
    /// may still hold an index that lists them. They stay until `waitingUntil`.
    public let waiting: [Garbage]
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
    /// `delete_bundle` and earlier runs wrote, see `RetirementRecords`): a client may
    /// still hold, for its cache lifetime, an index that lists it. A forced run records
    /// when it first found each file unreferenced, so a later run removes it.
    ///
    /// Holds the import lock exclusively throughout: an import's objects are referenced
    /// by no manifest until it commits, so `clean` waits for running imports to finish
    /// and keeps new ones out until it is done. The dry run takes it too, so its list is
    /// exactly what a forced run would remove at that moment. What any of the four index
    /// copies lists is kept, even in a copy an interrupted writer left behind (clients
    /// may have read it); a forced run then repairs the copies, so a later run can
    /// remove what only the lagging copy listed.
    ///
    /// Files in `keeping` are never removed (`publish --delete` keeps what its source has).
    public func clean(
        force: Bool = false, grace: Duration = Catalog.indexCacheLifetime, keeping: Set<String> = [],
        progress: (@Sendable (MaintenanceProgress) -> Void)? = nil
    ) throws -> CleanReport {
        try storage.withImportLock(exclusive: true) { lock in
            let referenced = try referencedFiles()
            if force { try repairIndexCopies() }
            let now = WallClock.nowMilliseconds()
            let retirements = RetirementRecords(storage: storage)
            let (records, damagedRecords) = try retirements.load()
            // When each file was first recorded out of the index; a file without a record is
            // taken to have left it now (and gets one, below, if it has to wait).
            var recordedAt = [String: Int64]()
            for record in records {
                for file in record.files { recordedAt[file] = min(recordedAt[file] ?? .max, record.time) }
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
            // may have been reused, and retired again, since its own record).
            var leftAt = recordedAt
            for (manifest, objects) in try objectsOfRetiredManifests(unreferenced) {
                for object in objects {
                    leftAt[object] = max(leftAt[object] ?? now, recordedAt[object] ?? now, recordedAt[manifest] ?? now)
                }
            }
            let graceMilliseconds = WallClock.milliseconds(grace)
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
            var garbage = removable
            garbage += try storage.abandonedTemporaryFiles(olderThan: Self.abandonedTemporaryAge)
            garbage += try LockObjects(storage: storage, policy: storage.lockPolicy).staleLocks()
            // A file that vanished since the listing (another clean) is no longer garbage to report.
            let files = try garbage.compactMap { path in try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) } }
            let waitingFiles = try waiting.compactMap { path in try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) }
            }
            let waitingUntil = waiting.map { (leftAt[$0] ?? now) + graceMilliseconds }.max()
            if force {
                try retirements.record(waiting.filter { recordedAt[$0] == nil }, at: now)
                let counter = ProgressCounter<MaintenanceProgress>(
                    .removing, totalItems: files.count,
                    totalBytes: files.reduce(0) { $0 + $1.size }, report: progress)
                for (n, file) in files.enumerated() {
                    // A lock object must still be ours: an import may start once it looks stale.
                    if n % Self.filesPerLockCheck == 0 { try lock.confirm() }
                    try storage.delete(file.path)
                    counter.finishedItem(bytes: file.size)
                }
                // Bookkeeping, not catalog content: removed without being reported.
                for record in spent + damagedRecords { try storage.delete(record) }
            }
            return CleanReport(
                files: files, waiting: waitingFiles,
                waitingUntil: waitingUntil.map { Date(timeIntervalSince1970: Double($0) / 1000) }, removed: force)
        }
    }

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
