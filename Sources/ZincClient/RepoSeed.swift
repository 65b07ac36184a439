import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When ``Repo/seed(from:sources:distro:trustedKeys:hashing:writableFiles:options:)`` hashes the seed's files.
public enum SeedHashing: Sendable {
    /// When the catalog is trusted with keys (given to `seed`, or the repo's already):
    /// then every file's SHA-1 must be the manifest's and its SHA-256 the one the
    /// manifest's signature records. Otherwise the files are taken as the manifest names
    /// them, their sizes checked where it records them: they are the app's own files,
    /// which the app's code signature covers where the system checks one.
    case whenSigned
    /// Always: every file's SHA-1 (and, for a signed seed, SHA-256) must match.
    case always
}

/// What ``Repo/seed(from:sources:distro:trustedKeys:hashing:writableFiles:options:)`` did.
public struct SeedResult: Equatable, Sendable, Encodable {
    public let catalog: String
    public let bundle: String
    /// The version the seed holds.
    public let version: Int
    public let flavor: String?
    /// The distribution the bundle is tracked at: the one given to `seed`, or else the
    /// seed's own (`seed-distro.json`), or else master.
    public let distro: String
    /// The files of that version (of the flavor).
    public let files: Int
    /// Objects placed from the seed's files, and their bytes, by how: a hard link or a
    /// clone stores no byte again; a copy does, where the file system allows neither.
    package let linkedObjects: Int
    package let clonedObjects: Int
    package let copiedObjects: Int
    package let linkedBytes: Int64
    package let clonedBytes: Int64
    package let copiedBytes: Int64
    /// Objects the repo held already: the seed's files for them were not read.
    package let presentObjects: Int
    /// Whether the seed's files were hashed (see ``SeedHashing``).
    package let hashed: Bool
    /// Whether the bundle switched to the seed's version. False when the repo held this
    /// version or a newer one already: a seed never replaces newer content with older.
    public let switched: Bool
    /// The version the repo has checked out now (the seed's, or the newer one it kept).
    public let checkedOutVersion: Int

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, version, flavor, distro, files, hashed, switched
        case linkedObjects = "linked_objects"
        case clonedObjects = "cloned_objects"
        case copiedObjects = "copied_objects"
        case linkedBytes = "linked_bytes"
        case clonedBytes = "cloned_bytes"
        case copiedBytes = "copied_bytes"
        case presentObjects = "present_objects"
        case checkedOutVersion = "checked_out_version"
    }
}

extension Repo {
    /// Checks out the bundle version a seed folder holds (an app's own copy of it, written
    /// by `zinc export_seed`; see `SeedFolder`), reading nothing but that folder: no
    /// request is made, so a first launch offline has the bundle at once. The bundle is
    /// then tracked as `track` would track it, and the next sync fetches only what the
    /// seed lacked.
    ///
    /// The seed is checked as a sync checks a catalog: its index must be the catalog
    /// `seed.json` names and list the version, the distro must exist in it, and the
    /// manifest must describe that version. With trusted keys (`trustedKeys`, or the
    /// repo's for that catalog when none are given) the index and manifest signatures
    /// must verify by one of them, or the seed is refused with a ``SyncError`` of code
    /// ``SyncError/Code/untrusted``; the index signature's expiry is
    /// not held against a seed, which ships inside an app for months (its sequence still
    /// becomes the lowest a later sync accepts).
    ///
    /// **Hashing.** With trusted keys, or with `hashing` `.always`, every file placed is
    /// hashed first (SHA-1, and the SHA-256 a signed manifest records), and a file that
    /// does not match refuses the seed with a ``SyncError`` of code
    /// ``SyncError/Code/corruptDownload``.
    /// Otherwise (`.whenSigned` and no keys) the files are trusted as the app ships them,
    /// only their sizes checked where the manifest records them. Either way the repo
    /// vouches for the objects (`stamps`), so the next sync neither hashes nor
    /// fetches them again; `zinc repo verify` hashes everything.
    ///
    /// **Placement.** Each object the repo lacks goes into `objects/` without storing its
    /// bytes again where the file system allows: a clone first on Apple systems
    /// (`clonefile`), then a hard link to the seed's file when nothing may write to that
    /// file (no write permission bit: `export_seed` writes them so, and an object must
    /// never change through the app's folder), then a clone (`FICLONE`), then a copy.
    /// Nothing is ever written into the seed folder.
    ///
    /// With `writableFiles`, the bundle's files are the app's own, as with `track`: clones
    /// of the objects where the file system makes them, copies otherwise (the objects
    /// themselves are placed as above).
    ///
    /// When the repo holds this bundle (same flavor and kind of files) at the seed's version or a newer one,
    /// nothing is placed or switched (`switched` false): an app update that ships an older
    /// seed than what was downloaded since changes nothing. The sources, distro and keys
    /// are recorded either way. Otherwise the seed is a mode of a sync's run: its files
    /// are placed where the repo lacks the objects, the version is built from the
    /// bundle's spare folder where it has one (only the files that differ placed), the
    /// version it replaces becomes the spare, and what nothing uses is collected, as
    /// after a sync.
    ///
    /// - Parameters:
    ///   - seedFolder: the seed, as `zinc export_seed` wrote it.
    ///   - sources: where later syncs fetch the catalog (URLs or local paths, as `track`
    ///     takes them), added to those the repo has for it.
    ///   - distro: the distribution later syncs follow; it must exist in the seed's index.
    ///     Nil: the one the seed was exported by (`seed-distro.json`, which `zinc
    ///     export_seed --distro D` writes), or master for a seed without it.
    ///   - trustedKeys: replace the catalog's trusted keys, as with `track`.
    ///   - hashing: when to hash the seed's files (see ``SeedHashing``).
    ///   - writableFiles: give the app files it may write to
    ///     (``RepoState/TrackedBundle/writableFiles``).
    ///   - options: the sync options; only the cancellation matters to a seed, which
    ///     makes no request.
    ///
    /// Cancelling the calling task stops the seed between batches of files placed,
    /// leaving what a killed one leaves: the previous version in use, the objects placed
    /// kept for the next seed or sync. `SyncEngine.seed(from:sources:distro:trustedKeys:hashing:writableFiles:)`
    /// is the same, blocking.
    @discardableResult
    public func seed(
        from seedFolder: URL, sources: [URL], distro: String? = nil, trustedKeys: [PublicKey] = [],
        hashing: SeedHashing = .whenSigned, writableFiles: Bool = false, options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> SeedResult {
        try await seed(
            from: try Self.localPath(seedFolder), sources: sources.map(catalogLocation(of:)), distro: distro, trustedKeys: trustedKeys,
            hashing: hashing,
            writableFiles: writableFiles, options: options)
    }

    /// ``seed(from:sources:distro:trustedKeys:hashing:writableFiles:options:)`` for a
    /// seed folder and sources given as text, as the `zinc` command takes them.
    @discardableResult
    package func seed(
        from seedFolder: String, sources: [String], distro: String? = nil, trustedKeys: [PublicKey] = [],
        hashing: SeedHashing = .whenSigned, writableFiles: Bool = false, options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> SeedResult {
        try await run(options, nil) { repo, options in
            let request = try repo.seedRequest(
                from: seedFolder, sources: sources, distro: distro, trustedKeys: trustedKeys, hashing: hashing,
                writableFiles: writableFiles)
            return try await SyncEngine(repo: repo, options: options).seed(request)
        }
    }

    /// The seed run that `seed` describes, its folder read and its distribution checked.
    func seedRequest(
        from seedFolder: String, sources: [String], distro: String?, trustedKeys: [PublicKey], hashing: SeedHashing,
        writableFiles: Bool
    ) throws -> SeedRequest {
        try distro.map(Names.validateDistroName)
        let seed = try SeedReader(folder: seedFolder, repo: self)
        return SeedRequest(
            seed: seed, sources: sources.map(catalogURL(forLocation:)), distro: distro ?? seed.description.distro ?? "master",
            trustedKeys: trustedKeys, hashing: hashing, writableFiles: writableFiles)
    }
}
