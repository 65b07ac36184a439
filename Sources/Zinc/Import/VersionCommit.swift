/// Committing an imported version, correct on every backend without any lock.
///
/// 1. **Reserve** a number: one compare-and-swap on the index raises the bundle's
///    `next_version`, so no other writer, on any machine, can take the same number.
///    An import that finds the newest version already holding its files reserves
///    nothing and reports it unchanged.
/// 2. **Write** the LMFO record and, when the catalog keeps every version's archives,
///    the archives (in LMFO order over the versions listed at reservation), and the
///    chunk list, then the manifest, all create-only, each batch flushed.
/// 3. **Commit**: a compare-and-swap adds the version to the index, unless the index
///    has moved on in a way that would make the version wrong:
///    - another writer committed the same files meanwhile: the reserved files are
///      removed and the import is unchanged;
///    - a higher version was committed first: a new number is reserved in the same
///      swap and the version is written again under it, since committing below a
///      newer version would change that version's LMFO order after the fact;
///    - the versions below changed (another import committed, a version was
///      deleted): the archives are rebuilt in the order those versions now give.
///    A version is thus never listed twice and never committed out of order.
extension Catalog {
    /// How many times a commit may find the index moved on before giving up.
    private static let commitAttempts = 16

    /// What committing a draft came to: a version created, with the SHA-1 of its
    /// manifest's JSON, or the version found to hold the same files.
    struct CommittedVersion {
        let result: BundleUpdateResult
        /// Nil when nothing was created.
        let manifestSHA: String?
        /// The version created is the bundle's version 1.
        let isNewBundle: Bool

        static func unchanged(_ version: Int) -> CommittedVersion {
            CommittedVersion(result: .unchanged(version: version), manifestSHA: nil, isNewBundle: false)
        }
    }

    /// `objectsFlush` is flushing the draft's objects: the version's files are written
    /// meanwhile, and its manifest waits for it.
    func commitVersion(
        _ name: String, _ draft: VersionDraft, _ objectsFlush: PendingFlush, comparedWith: Int?,
        options: BundleImportOptions, lock: HeldLock
    ) throws -> CommittedVersion {
        // Archives at import only when the catalog keeps every version's; otherwise
        // `update_distro` writes them when a distribution is to name the version.
        let archives = try archivePolicy() == .all ? archiveScopes(of: draft, options: options) : []
        return try storage.withWriterLock {
            var reservation: Reservation
            switch try reserveVersion(name, draft, comparedWith: comparedWith, force: options.force) {
            case .unchanged(let version): return .unchanged(version)
            case .reserved(let reserved): reservation = reserved
            }
            var manifestSHA = try writeVersion(name, draft, reservation, objectsFlush, archives: archives, options: options)
            for _ in 0..<Self.commitAttempts {
                // Refuse to commit if `clean` may have taken this import's lock for stale.
                try lock.confirm()
                switch try addVersion(name, draft, reservation, force: options.force) {
                case .committed:
                    return CommittedVersion(
                        result: .created(version: reservation.version), manifestSHA: manifestSHA, isNewBundle: reservation.version == 1)
                case .unchanged(let version):
                    try removeVersion(name, reservation.version, archives: archives)
                    return .unchanged(version)
                case .renumbered(let renumbered):
                    try removeVersion(name, reservation.version, archives: archives)
                    reservation = renumbered
                    manifestSHA = try writeVersion(name, draft, reservation, objectsFlush, archives: archives, options: options)
                case .reordered(let earlierVersions, let latest):
                    reservation.earlierVersions = earlierVersions
                    reservation.latestSeen = latest
                    try writeArchives(name, draft, reservation, archives: archives, options: options, condition: .always)
                }
            }
            throw ZincError.indexChangedDuringCommit(location: storage.location, bundle: name, version: reservation.version)
        }
    }

    private struct Reservation {
        let catalogID: String
        let version: Int
        /// The versions the index listed when the archives were ordered.
        var earlierVersions: [Int]
        /// The newest of them, whose files this import was compared with.
        var latestSeen: Int?
    }

    private enum ReservationOutcome {
        case reserved(Reservation)
        case unchanged(version: Int)
    }

    private enum CommitOutcome {
        case committed
        case unchanged(version: Int)
        case renumbered(Reservation)
        case reordered(earlierVersions: [Int], latest: Int?)
    }

    /// `comparedWith` is the version the import already found different, if any: it is
    /// not read again unless the index has another newest version by now.
    private func reserveVersion(_ name: String, _ draft: VersionDraft, comparedWith: Int?, force: Bool) throws -> ReservationOutcome {
        try updateIndexLocked { index in
            var entry = index.bundles[name] ?? CatalogIndex.BundleEntry()
            if !force, let latest = entry.latestVersion, latest != comparedWith, try version(latest, of: name, holds: draft) {
                return .unchanged(version: latest)
            }
            let version = try entry.reserveVersion(bundle: name)
            index.bundles[name] = entry
            return .reserved(
                Reservation(
                    catalogID: index.id, version: version, earlierVersions: entry.versions,
                    latestSeen: entry.latestVersion))
        }
    }

    private func addVersion(_ name: String, _ draft: VersionDraft, _ reservation: Reservation, force: Bool) throws -> CommitOutcome {
        try updateIndexLocked { index in
            var entry = index.bundles[name] ?? CatalogIndex.BundleEntry()
            let listed = entry.versions
            guard !listed.contains(reservation.version) else {
                throw ZincError.reservedVersionTaken(location: storage.location, bundle: name, version: reservation.version)
            }
            if !force, let latest = entry.latestVersion, latest != reservation.latestSeen, try version(latest, of: name, holds: draft) {
                return .unchanged(version: latest)
            }
            if let latest = entry.latestVersion, latest > reservation.version {
                let version = try entry.reserveVersion(bundle: name)
                index.bundles[name] = entry
                return .renumbered(
                    Reservation(
                        catalogID: reservation.catalogID, version: version,
                        earlierVersions: listed, latestSeen: latest))
            }
            guard listed == reservation.earlierVersions else { return .reordered(earlierVersions: listed, latest: entry.latestVersion) }
            entry.versions.append(reservation.version)
            index.bundles[name] = entry
            return .committed
        }
    }

    /// Whether version `version` of `name` holds exactly the draft's files.
    private func version(_ version: Int, of name: String, holds draft: VersionDraft) throws -> Bool {
        guard let stored = StoredManifest(bundle: name, version: version, in: self) else { return false }
        return try stored.holdsExactly(paths: draft.paths, digest: draft.digest, fileFlavors: draft.fileFlavors)
    }

    /// Writes the LMFO record and archives, then the manifest, of a reserved version;
    /// returns the SHA-1 of the manifest's JSON. The manifest is encoded while the
    /// archives are written (see `EncodedManifest`), and put in place once they and the
    /// objects are flushed.
    private func writeVersion(
        _ name: String, _ draft: VersionDraft, _ reservation: Reservation, _ objectsFlush: PendingFlush,
        archives: [String?], options: BundleImportOptions
    ) throws -> String {
        let path = VersionFiles(bundle: name, version: reservation.version).manifest
        let manifest = try parallelMap(count: 2, workers: options.workers) { task -> EncodedManifest? in
            guard task == 1 else {
                try self.writeArchives(name, draft, reservation, archives: archives, options: options, condition: .ifAbsent)
                return nil
            }
            return try EncodedManifest.encode(path, in: self.storage) { sink in
                try draft.encode(catalog: reservation.catalogID, bundle: name, version: reservation.version, sink)
            }
        }[1]!
        try objectsFlush.wait()
        // After the objects they describe, durable before the manifest appears, before the
        // index lists the version. A version of small files has no chunk list, one of raw
        // objects alone no sizes file; every manifest has its chunks described.
        let files = VersionFiles(bundle: name, version: reservation.version)
        let chunkList = try draft.chunkList()
        for (path, document) in [
            (files.chunkList, chunkList.objects.isEmpty ? nil : chunkList.encoded()),
            (files.contentSizes, draft.contentSizes.sizes.isEmpty ? nil : draft.contentSizes.encoded()),
            (files.manifestChunks, manifest.chunks.encoded()),
        ] {
            guard let document else { continue }
            guard try storage.write(GzipCompressor.compress(document), to: path, .ifAbsent) == .written else {
                throw ZincError.versionFileExists("\(storage.location)/\(path)")
            }
        }
        try storage.flush()
        try manifest.commit()
        try storage.flush()
        return manifest.sha
    }

    /// The LMFO record and the archives of scopes `archives` of a reserved version,
    /// ordered over the versions listed before it: created, or (`.always`) rebuilt when
    /// those versions changed before the commit. The record is written without archives
    /// too: an archive written later follows it (see `writeMissingArchives`).
    private func writeArchives(
        _ name: String, _ draft: VersionDraft, _ reservation: Reservation, archives: [String?],
        options: BundleImportOptions, condition: WriteCondition
    ) throws {
        var scopes = [String?: [SHA1.Digest]]()
        for scope in [nil] + draft.flavors {
            scopes[scope] = draft.distinctObjects(in: scope).map(\.digest)
        }
        let record = try lmfoRecord(
            bundle: name, version: reservation.version, earlierVersions: reservation.earlierVersions,
            scopes: scopes)
        // The record first: its JSON is gone before the archives' member lists are made.
        let files = VersionFiles(bundle: name, version: reservation.version)
        guard try storage.write(record.encoded(), to: files.lmfoRecord, condition) == .written else {
            throw ZincError.versionFileExists("\(storage.location)/\(files.lmfoRecord)")
        }
        // Unless held to a number of threads, two lanes per core fill the archives: a lane
        // waits on its direct writes about as long as it fills a block, the more so while
        // the import's objects are written back beside them.
        let lanes = options.workers ?? 2 * AvailableCores.count
        for scope in archives {
            try writeArchive(
                files.archive(scope),
                members: Catalog.archiveMembers(ofDistinct: draft.distinctObjects(in: scope), flavor: scope, record: record),
                workers: lanes, condition: condition)
        }
        try storage.flush()
    }

    /// Removes the files written for a reserved version that will not be committed. No
    /// index lists it and no other writer can take its number, so nobody refers to them.
    private func removeVersion(_ name: String, _ version: Int, archives: [String?]) throws {
        for path in VersionFiles(bundle: name, version: version).all(archiveScopes: archives) {
            try storage.delete(path)
        }
    }

    private func archiveScopes(of draft: VersionDraft, options: BundleImportOptions) -> [String?] {
        Catalog.archiveScopes(
            flavors: draft.flavors, includeMasterArchive: options.includeMasterArchive,
            fileCount: draft.fileCount(in:))
    }
}

extension CatalogIndex.BundleEntry {
    /// Takes the next version number for a new version; it is never handed out again.
    mutating func reserveVersion(bundle: String) throws -> Int {
        guard nextVersion < CatalogIndex.maximumVersion else {
            throw ZincError.versionNumbersExhausted(bundle: bundle)
        }
        nextVersion += 1
        return nextVersion
    }
}
