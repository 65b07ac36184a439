import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When ``Repo/seed(from:sources:distro:trustedKeys:hashing:writableFiles:)`` hashes the seed's files.
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

/// What ``Repo/seed(from:sources:distro:trustedKeys:hashing:writableFiles:)`` did.
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
    public let linkedObjects: Int
    public let clonedObjects: Int
    public let copiedObjects: Int
    public let linkedBytes: Int64
    public let clonedBytes: Int64
    public let copiedBytes: Int64
    /// Objects the repo held already: the seed's files for them were not read.
    public let presentObjects: Int
    /// Whether the seed's files were hashed (see ``SeedHashing``).
    public let hashed: Bool
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
    /// must verify by one of them, or the seed is refused with
    /// ``ClientError/untrusted(catalog:file:reason:)``; the index signature's expiry is
    /// not held against a seed, which ships inside an app for months (its sequence still
    /// becomes the lowest a later sync accepts).
    ///
    /// **Hashing.** With trusted keys, or with `hashing` `.always`, every file placed is
    /// hashed first (SHA-1, and the SHA-256 a signed manifest records), and a file that
    /// does not match refuses the seed with ``ClientError/integrity(url:reason:)``.
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
    /// are recorded either way.
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
    @discardableResult
    public func seed(
        from seedFolder: String, sources: [String], distro: String? = nil, trustedKeys: [PublicKey] = [],
        hashing: SeedHashing = .whenSigned, writableFiles: Bool = false
    ) throws -> SeedResult {
        try distro.map(Names.validateDistroName)
        let urls = sources.map(catalogURL(forLocation:))
        let seed = try SeedReader(folder: seedFolder, repo: self)
        let distro = distro ?? seed.description.distro ?? "master"
        return try withLock(exclusive: true) {
            var state = try loadState()
            let keys = trustedKeys.isEmpty ? state.catalogs[seed.description.catalog]?.trustedKeys ?? [] : trustedKeys
            // The seed's files go through the sync's own reading and checks, which are async.
            let checked = try blockingWait(on: SyncEngine.executor) { [state] in
                try await seed.check(distro: distro, keys: keys, state: state)
            }
            let catalog = checked.index.id
            let flavor = seed.description.flavor

            var sources = state.catalogs[catalog] ?? .init()
            for url in urls { sources.add(url) }
            if !trustedKeys.isEmpty { sources.trustedKeys = trustedKeys }
            state.catalogs[catalog] = sources
            // As `track` does: the version checked out stays when the flavor does.
            var tracked = RepoState.TrackedBundle(catalog: catalog, bundle: seed.description.bundle, distro: distro, flavor: flavor)
            tracked.writableFiles = writableFiles
            state.track(tracked)
            let position = state.bundles.firstIndex { $0.catalog == catalog && $0.bundle == seed.description.bundle }!
            let bundle = state.bundles[position].bundle

            let version = seed.description.version
            var placement = SeedPlacement()
            if let kept = state.bundles[position].version, kept >= version,
                FileManager.default.fileExists(atPath: bundleFolder(catalog: catalog, bundle: bundle, version: kept, flavor: flavor))
            {
                try state.save(in: root)
            } else {
                try GarbageCollector.willBeNeeded(in: self)
                var check = StoreCheck(repo: self)
                placement = try seed.place(
                    checked.manifest, flavor: flavor, check: &check, hashing: hashing == .always || !keys.isEmpty)
                let checkout = try BundleCheckout(
                    checked.manifest.header, checked.manifest.table, catalog: catalog, flavor: flavor, writable: writableFiles,
                    repo: self)
                do {
                    try checkout.finish(left: checkout.placeAvailable())
                } catch {
                    checkout.abandon()
                    throw error
                }
                // Kept as a sync keeps an index, unless the repo accepted a newer signed one already.
                try IndexFetcher(repo: self, limit: SyncOptions.defaultDocumentLimit).accept(
                    checked.fetched, as: catalog, into: &state, policy: .seed)
                state.bundles[position].version = version
                try state.save(in: root)  // the switch
                try CurrentLinks.point(state.bundles[position], at: version, in: self)
                placement.switched = true
                // The versions this replaced go, as after a sync; their objects wait for the
                // next sync, which removes those nothing uses.
                check.trustStamped()
                _ = try GarbageCollector(repo: self).collect(state, downloads: false)
                Trash(repo: self).empty()
                check.saveStamps()
            }
            return SeedResult(
                catalog: catalog, bundle: bundle, version: version, flavor: flavor, distro: distro,
                files: checked.manifest.table.fileCount(flavor: flavor), linkedObjects: placement.count[.linked, default: 0],
                clonedObjects: placement.count[.cloned, default: 0], copiedObjects: placement.count[.copied, default: 0],
                linkedBytes: placement.bytes[.linked, default: 0], clonedBytes: placement.bytes[.cloned, default: 0],
                copiedBytes: placement.bytes[.copied, default: 0], presentObjects: placement.present, hashed: placement.hashed,
                switched: placement.switched, checkedOutVersion: state.bundles[position].version ?? version)
        }
    }
}

/// What placing a seed's objects did.
private struct SeedPlacement {
    var count: [FileClone.Method: Int] = [:]
    var bytes: [FileClone.Method: Int64] = [:]
    var present = 0
    var hashed = false
    var switched = false
}

/// One seed folder, read through a `FileCatalogSource` so that its index, manifest and
/// signatures go through the checks of a sync. Nothing is written into it.
private struct SeedReader: Sendable {
    let folder: String
    let url: String
    let description: SeedFolder
    let repo: Repo
    let chain: SourceChain

    /// The seed's documents, checked.
    struct Checked: Sendable {
        let index: CatalogIndex
        /// The index as read, with its checked signature where the catalog has trusted keys.
        let fetched: IndexFetcher.Fetched
        /// With what its signature says of its objects' content, for a signed manifest.
        let manifest: ManifestFetcher.Fetched
    }

    init(folder path: String, repo: Repo) throws {
        folder = Repo.absolute(path)
        url = "file://" + folder
        let file = folder + "/" + SeedFolder.descriptionFile
        guard let bytes = try AtomicFile.read(file, limit: Int64(SeedFolder.descriptionSizeLimit)) else {
            throw ZincError.io(path: file, operation: "read", errno: ENOENT)
        }
        var description = try SeedFolder.parse(bytes, path: file)
        let distroFile = folder + "/" + SeedFolder.distroFile
        if let distroBytes = try AtomicFile.read(distroFile, limit: Int64(SeedFolder.descriptionSizeLimit)) {
            description.distro = try SeedFolder.parseDistro(distroBytes, path: distroFile)
        }
        self.description = description
        self.repo = repo
        chain = SourceChain(catalog: url, sources: [FileCatalogSource(url: url, root: folder)], temporaryFolder: repo.temporaryFolder)
    }

    /// Reads the seed's index and manifest through a sync's checks, the index's
    /// signature by `keys` (none: not checked) except for its expiry (see `Repo.seed`).
    func check(distro: String, keys: [PublicKey], state: RepoState) async throws -> Checked {
        let limit = SyncOptions.defaultDocumentLimit
        let (fetched, index) = try await IndexFetcher(repo: repo, limit: limit).fetchFresh(
            via: chain, state: state, trustedKeys: keys, policy: .seed)
        let catalog = description.catalog
        guard index.id == catalog else {
            throw ClientError.badResponse(url: url, reason: "holds catalog '\(index.id)', but seed.json names '\(catalog)'")
        }
        let entry = try index.bundle(description.bundle)
        guard entry.versions.contains(description.version) else {
            throw ZincError.versionNotFound(bundle: description.bundle, version: "\(description.version) (in the seed's index)")
        }
        _ = try VersionSpec.distro(distro).resolve(in: entry, name: description.bundle)
        let checks = keys.isEmpty ? nil : SignatureChecks(catalog: catalog, keys: keys, chain: chain)
        let manifest = try await ManifestFetcher(repo: repo, limit: limit, checks: checks).manifest(
            catalog: catalog, bundle: description.bundle, version: description.version, via: chain)
        try manifest.header.requireFlavor(description.flavor)
        return Checked(index: index, fetched: fetched, manifest: manifest)
    }

    /// Places into objects/ every object of the version (of the flavor) the repo lacks or
    /// holds damaged, from the seed's files, each on its own core; see `Repo.seed`.
    func place(
        _ manifest: ManifestFetcher.Fetched, flavor: String?, check: inout StoreCheck, hashing: Bool
    ) throws -> SeedPlacement {
        var placement = SeedPlacement()
        placement.hashed = hashing
        // One file per object: the others with the same content are the same bytes.
        var fileOf = [SHA1.Digest: ManifestRow]()
        manifest.table.forEachRow(flavor: flavor) { row in
            if fileOf[row.object.digest] == nil { fileOf[row.object.digest] = row }
        }
        var wanted = [(object: StoredObject, path: String, ordinal: UInt32)]()
        for (digest, row) in fileOf.sorted(by: { $0.key < $1.key }) {
            switch try check.object(digest) {
            case .sound:
                placement.present += 1
                continue
            case .damaged:
                try check.discard(digest)
            case .missing:
                break
            }
            wanted.append((row.object, row.path, row.ordinal))
        }
        let signedContent = try manifest.signedContent(ofRows: wanted.map(\.ordinal))
        let placed = try parallelMap(count: wanted.count, workers: nil) { [wanted] i in
            try place(
                wanted[i].object, from: wanted[i].path, hashing: hashing,
                signedSHA256: ObjectVerifier.signedSHA256(of: wanted[i].object, in: signedContent, origin: wanted[i].path))
        }
        // The seed's files arrive without the hashing that records their chunks.
        if !wanted.isEmpty { LocalChunks.objectsArrivedUnrecorded(in: repo) }
        for ((object, _, _), (method, size)) in zip(wanted, placed) {
            placement.count[method, default: 0] += 1
            placement.bytes[method, default: 0] += size
            check.vouch(for: object.digest)
        }
        return placement
    }

    /// One object from the seed's file at `path`: placed under a scratch name, hashed
    /// there when `hashing` (the bytes checked are the bytes kept, whatever the seed's
    /// file does later), then renamed into objects/. Returns how, and its size.
    private func place(_ object: StoredObject, from path: String, hashing: Bool, signedSHA256: SHA256.Digest?) throws
        -> (FileClone.Method, Int64)
    {
        let source = folder + "/" + SeedFolder.filesFolder + "/" + path
        var info = stat()
        guard lstat(source, &info) == 0 else { throw ZincError.io(path: source, operation: "read", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ClientError.integrity(url: source, reason: "not a regular file")
        }
        let size = Int64(info.st_size)
        if let expected = object.contentSize, expected != size {
            throw ClientError.integrity(url: source, reason: "it has \(size) bytes, but the manifest records \(expected)")
        }
        let scratch = repo.temporaryFolder + "/" + object.sha + ".seed"
        unlink(scratch)
        // A link only to a file no one may write to: the object would change with it.
        let method = try FileClone.place(source, at: scratch, linkable: info.st_mode & 0o222 == 0, mode: 0o444)
        do {
            if hashing { try ObjectVerifier(object: object, signedSHA256: signedSHA256, origin: source).verify(file: scratch) }
            guard rename(scratch, repo.objectFile(object.sha)) == 0 else {
                throw ZincError.io(path: repo.objectFile(object.sha), operation: "move into place", errno: errno)
            }
        } catch {
            unlink(scratch)
            throw error
        }
        return (method, size)
    }
}
