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
    /// The version's folder, where the app reads its files.
    public let folder: String
    /// Paths in the bundle, sorted.
    public let damagedFiles: [String]

    public var isHealthy: Bool { damagedFiles.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, flavor, version, folder
        case damagedFiles = "damaged_files"
    }

    /// The health of `tracked`'s checked-out version; nil before its first sync.
    static func of(_ tracked: RepoState.TrackedBundle, in repo: Repo, check: inout StoreCheck) throws -> BundleHealth? {
        guard let version = tracked.version else { return nil }
        let folder = repo.bundleFolder(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        let manifest = try repo.checkedOutManifest(catalog: tracked.catalog, bundle: tracked.bundle, version: version)
        // Writable files are the app's: not judged.
        let files = tracked.writableFiles ? [] : manifest.paths(flavor: tracked.flavor).map { ($0, manifest.files[$0]!.sha) }
        let damaged = try check.damage(in: folder, files: files).sorted()
        // For the next sync, which rebuilds only the folders a check found damaged.
        check.record(
            folder: Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor),
            damaged: !damaged.isEmpty)
        return BundleHealth(
            catalog: tracked.catalog, bundle: tracked.bundle, flavor: tracked.flavor, version: version, folder: folder,
            damagedFiles: damaged)
    }
}

extension Repo {
    /// Hashes every object of every checked-out version and checks that each file of its
    /// folder is its object (or a copy with the same bytes). No network; nothing is
    /// repaired (`SyncEngine.repair()` does that). Unlike `sync` and `status`, which
    /// hash only the objects whose size or times changed since they were verified, this
    /// finds damage that changed no metadata (a failing disk).
    public func verify() throws -> [BundleHealth] {
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
