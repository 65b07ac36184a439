import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One tracked bundle as `zinc status` shows it.
public struct BundleStatus: Equatable, Sendable, Encodable {
    public let catalog: String
    public let bundle: String
    public let distro: String
    public let flavor: String?
    /// The version checked out, nil before the first sync.
    public let localVersion: Int?
    /// The version the distro points at in the last index fetched (no network here).
    public let remoteVersion: Int?
    public let files: Int
    public let bytesOnDisk: Int64
    /// The checked-out version's folder and its damaged files (see ``BundleHealth``,
    /// which `status` judges without hashing objects whose size and times are those
    /// verified); nil before the first sync.
    public let health: BundleHealth?
    /// The version the install follows and why, when the distribution has a rollout: as
    /// the files the last sync kept say, judged by the device's clock now.
    public let follows: FollowedVersion?

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, distro, flavor
        case localVersion = "local_version"
        case remoteVersion = "remote_version"
        case files
        case bytesOnDisk = "bytes_on_disk"
        case folder
        case damagedFiles = "damaged_files"
        case follows
    }

    /// The health's `folder` and `damaged_files` beside the others, once there is a version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(distro, forKey: .distro)
        try container.encodeIfPresent(flavor, forKey: .flavor)
        try container.encodeIfPresent(localVersion, forKey: .localVersion)
        try container.encodeIfPresent(remoteVersion, forKey: .remoteVersion)
        try container.encode(files, forKey: .files)
        try container.encode(bytesOnDisk, forKey: .bytesOnDisk)
        try container.encodeIfPresent(health?.folderPath, forKey: .folder)
        try container.encodeIfPresent(health?.damagedFiles, forKey: .damagedFiles)
        try container.encodeIfPresent(follows, forKey: .follows)
    }
}

extension Repo {
    /// What each tracked bundle has on disk, against what its catalog last listed.
    package func status() throws -> [BundleStatus] {
        try status(batchSize: FileJudgement.batchSize)
    }

    /// `status()`, judging each folder's files `batchSize` at a time (tests take few, so
    /// that a folder spans batches).
    package func status(batchSize: Int) throws -> [BundleStatus] {
        try withLock(exclusive: false) {
            // The folders it finds damaged are recorded, for the next sync to rebuild, and
            // the stamps of the objects it had to hash saved (atomically, as a sync saves
            // them): a repo copied with new inodes is hashed by one status, not by each.
            var check = StoreCheck(repo: self)
            let state = try loadState()
            defer {
                try? check.saveDamage(of: state)
                if check.hashedSound { check.saveStamps() }
            }
            // Looked up in their file, a batch of files at a time: never loaded whole.
            check.startReading()
            let now = Int64(Date().timeIntervalSince1970)
            return try state.bundles.map { tracked in
                var remote: Int?
                var follows: FollowedVersion?
                if let bytes = try AtomicFile.read(catalogFile(tracked.catalog), limit: RepoState.fileLimit),
                    let entry = try CatalogIndex.parse(bytes, path: catalogFile(tracked.catalog), onlyBundles: [tracked.bundle])
                        .bundles[tracked.bundle]
                {
                    remote = entry.distributions[tracked.distro]
                    if let pointer = remote, let install = state.install {
                        let reader = RolloutReader(repo: self, keys: state.catalogs[tracked.catalog]?.trustedKeys ?? [], now: now)
                        follows = FollowedVersion(
                            ifRollout: reader.choice(
                                try reader.kept(tracked, entry: entry), held: tracked.version, pointer: pointer, install: install))
                    }
                }
                var scan: FolderScan?
                var health: BundleHealth?
                if let version = tracked.version {
                    let trust = ManifestTable.Trust(catalog: tracked.catalog, in: state)
                    let judge = { (files: @escaping FolderScan.Files, check: inout StoreCheck) in
                        try? BundleHealth.of(tracked, version: version, expected: files, batchSize: batchSize, in: self, check: &check)
                    }
                    // The version's files read row by row from its table, none of them held.
                    var judged = (try? ManifestTableRows(tracked, version: version, in: self, trust: trust)).flatMap { rows in
                        judge({ try rows.forEach(flavor: tracked.flavor, $0) }, &check)
                    }
                    // Without a sound table (an earlier client's repo), or with one whose rows
                    // broke a rule on the way, the manifest is read whole, once: its table is
                    // written for the next status.
                    if judged == nil, let files = try? CheckedOutFiles.read(tracked, version: version, in: self, trust: trust) {
                        judged = judge({ files.forEachPath(flavor: tracked.flavor, $0) }, &check)
                    }
                    if let judged {
                        (health, scan) = (judged.health, judged.scan)
                    } else {
                        // A kept manifest gone (which `repo verify` reports), or a file that
                        // cannot be judged, leaves status to say the rest: what the folder holds.
                        let folder = bundlePath(
                            catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
                        scan = try FolderScan(folder, expected: nil, check: &check)
                    }
                }
                return BundleStatus(
                    catalog: tracked.catalog, bundle: tracked.bundle, distro: tracked.distro, flavor: tracked.flavor,
                    localVersion: tracked.version, remoteVersion: remote, files: scan?.files ?? 0, bytesOnDisk: scan?.bytes ?? 0,
                    health: health, follows: follows)
            }
        }
    }
}
