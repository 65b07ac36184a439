import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a checked-out version's folder holds what was verified: the files that do not
/// (edited through a link into the repo's objects, replaced, removed, or linked to an
/// object damaged on disk). `zinc sync` and `zinc repo verify --repair` rebuild such a
/// folder, fetching only the damaged objects.
public struct BundleHealth: Equatable, Sendable, Encodable {
    public let catalog: String
    public let bundle: String
    public let flavor: String?
    public let version: Int
    /// The version's folder, as a path (``folder``).
    package let folderPath: String
    /// Paths in the bundle, sorted.
    public let damagedFiles: [String]

    /// The version's folder, where the app reads its files.
    public var folder: URL { URL(fileURLWithPath: folderPath, isDirectory: true) }

    public var isHealthy: Bool { damagedFiles.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, flavor, version
        case folderPath = "folder"
        case damagedFiles = "damaged_files"
    }

    /// The health of `tracked`'s checked-out version; nil before its first sync.
    static func of(_ tracked: RepoState.TrackedBundle, in repo: Repo, check: inout StoreCheck) throws -> BundleHealth? {
        guard let version = tracked.version else { return nil }
        // Hashing everything, `verify` judges by the manifest itself, never by its table:
        // its files given as they are parsed, none held, when they come in path order, as
        // zinc writes them; else read whole and sorted, as before.
        do {
            let streamed: FolderScan.Files = { body in
                try keptFiles(of: tracked, version: version, in: repo) { path, object in body(path, object.digest) }
            }
            if check.thorough {
                // Every object judged: their verdicts kept 2 bits each, by place in the
                // version's objects gathered in a pass of their own (20 bytes an object,
                // where 24 a verdict, copied as they grew, took 48 MB at 1,000,000).
                let files =
                    (try? ManifestTable.header(
                        catalog: tracked.catalog, bundle: tracked.bundle, version: version, in: repo, trust: .nameAndSize))?.fileCount
                check.judgeWhole(
                    try VersionObjects(
                        streaming: { object in try keptFiles(of: tracked, version: version, in: repo) { object($1) } }, files: files ?? 0,
                        withSizes: false))
            }
            return try of(tracked, version: version, expected: streamed, in: repo, check: &check).health
        } catch is OutOfOrder {
            let expected = try CheckedOutFiles.read(tracked, version: version, in: repo, trust: .never)
            let files: FolderScan.Files = { body in expected.forEachPath(flavor: tracked.flavor, body) }
            return try of(tracked, version: version, expected: files, in: repo, check: &check).health
        }
    }

    /// A manifest whose files are not listed in path order: read whole.
    private struct OutOfOrder: Error {}

    /// Gives `body` the files of the tracked flavor of `tracked`'s kept manifest of
    /// `version` (each path and object), parsed as a stream, in path order; throws
    /// `OutOfOrder` at the first that is not after the one before (nothing given is then
    /// to be believed).
    private static func keptFiles(
        of tracked: RepoState.TrackedBundle, version: Int, in repo: Repo, _ body: (UnsafeBufferPointer<UInt8>, StoredObject) -> Void
    ) throws {
        guard let document = try repo.keptManifest(catalog: tracked.catalog, bundle: tracked.bundle, version: version) else {
            throw ZincError.corruptFile(
                path: repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version),
                reason: "the manifest of a checked-out version is missing")
        }
        var (previous, first) = ([UInt8](), true)
        _ = try Manifest.parse(document) { path, entry in
            var path = path
            try path.withUTF8 { bytes in
                guard first || previous.withUnsafeBufferPointer({ CompactManifest.compare($0, bytes) }) < 0 else { throw OutOfOrder() }
                if entry.isIn(flavor: tracked.flavor) { body(bytes, entry.object) }
                previous.removeAll(keepingCapacity: true)
                previous.append(contentsOf: bytes)
                first = false
            }
        }
    }

    /// The health of `tracked`'s `version`, whose files (of the tracked flavor) `expected`
    /// gives in path order, with what one walk of its folder found there.
    static func of(
        _ tracked: RepoState.TrackedBundle, version: Int, expected: @escaping FolderScan.Files, batchSize: Int = FileJudgement.batchSize,
        in repo: Repo, check: inout StoreCheck
    ) throws -> (health: BundleHealth, scan: FolderScan) {
        let folder = repo.bundlePath(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        // Writable files are the app's: not judged.
        let scan = try FolderScan(folder, expected: tracked.writableFiles ? nil : expected, batchSize: batchSize, check: &check)
        // For the next sync, which rebuilds only the folders a check found damaged.
        check.record(
            folder: Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor),
            damaged: !scan.damaged.isEmpty)
        let health = BundleHealth(
            catalog: tracked.catalog, bundle: tracked.bundle, flavor: tracked.flavor, version: version, folderPath: folder,
            damagedFiles: scan.damaged)
        return (health, scan)
    }
}

extension Repo {
    /// Hashes every object of every checked-out version and checks that each file of its
    /// folder is its object (or a copy with the same bytes). No network; nothing is
    /// repaired (`SyncEngine.repair()` does that). Unlike `sync` and `status`, which
    /// hash only the objects whose size or times changed since they were verified, this
    /// finds damage that changed no metadata (a failing disk).
    package func verify() throws -> [BundleHealth] {
        try withLock(exclusive: true) {
            var check = StoreCheck(repo: self, thorough: true)
            let state = try loadState()
            let health = try state.bundles.compactMap { try BundleHealth.of($0, in: self, check: &check) }
            check.saveStamps()
            try check.saveDamage(of: state)
            return health
        }
    }
}
