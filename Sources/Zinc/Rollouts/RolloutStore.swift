/// A rollout file as read, with the version its compare-and-swap replaces.
struct StoredRollout {
    let rollout: Rollout
    let bytes: [UInt8]
    let version: StorageVersion
}

/// The rollout file of one bundle's distribution in a catalog, and its log: the file
/// changes by compare-and-swap, as the index does, and each state it takes is kept as an
/// immutable copy named by its serial (FORMAT.md, "Rollouts").
struct RolloutStore {
    let catalog: Catalog
    let bundle: String
    let distro: String

    var path: String { RolloutFile.path(bundle: bundle, distro: distro) }

    private var storage: CatalogStorage { catalog.storage }

    /// The file as stored in the catalog whose id is `catalogID`, nil when there is none.
    /// Its log copy is created when missing (the writer that made it was stopped before
    /// it), so the log never lacks a state another change replaces.
    func current(catalogID: String) throws -> StoredRollout? {
        guard let content = try storage.readVersioned(path) else { return nil }
        let location = storage.location + "/" + path
        let rollout = try RolloutFile.parse(content.bytes, path: location)
        try RolloutFile.checkPlace(of: rollout, file: path, catalogID: catalogID, path: location)
        let stored = StoredRollout(rollout: rollout, bytes: content.bytes, version: content.version)
        try keepInLog(stored.bytes, serial: rollout.serial)
        return stored
    }

    /// Replaces `previous` (nil: creates the file) with `rollout`, signed when the catalog
    /// has a signer, and logs it; false when another writer changed the file meanwhile.
    func commit(_ rollout: Rollout, replacing previous: StoredRollout?) throws -> Bool {
        let bytes = RolloutFile.encode(rollout, signedBy: catalog.signer?.key)
        guard try storage.write(bytes, to: path, previous.map { .ifMatch($0.version) } ?? .ifAbsent) == .written else {
            return false
        }
        try keepInLog(bytes, serial: rollout.serial)
        return true
    }

    /// Every state the file has had, oldest first.
    func log() throws -> [Rollout] {
        let folder = RolloutFile.logPath(bundle: bundle, distro: distro)
        var entries = [Rollout]()
        for file in try storage.list(folder) where file.hasSuffix(".rollout") {
            guard let bytes = try storage.read(file) else { continue }
            entries.append(try RolloutFile.parse(bytes, path: storage.location + "/" + file))
        }
        return entries.sorted { $0.serial < $1.serial }
    }

    private func keepInLog(_ bytes: [UInt8], serial: Int64) throws {
        let copy = RolloutFile.logPath(bundle: bundle, distro: distro, serial: serial)
        // Absent or already there: both leave the copy of this serial in the log.
        _ = try storage.write(bytes, to: copy, .ifAbsent)
    }
}

extension Catalog {
    /// The rollouts of this catalog that apply under `index`: not complete, their control
    /// still the pointer. `clean`, `prune` and `delete_bundle` keep their versions, and
    /// their candidates' archives.
    func liveRollouts(in index: CatalogIndex) throws -> [Rollout] {
        var live = [Rollout]()
        for file in try RolloutFile.list(in: storage) {
            guard let bytes = try storage.read(file) else { continue }
            let path = storage.location + "/" + file
            let rollout = try RolloutFile.parse(bytes, path: path)
            try RolloutFile.checkPlace(of: rollout, file: file, catalogID: index.id, path: path)
            if rollout.applies(whilePointerIs: index.bundles[rollout.bundle]?.distributions[rollout.distro]) {
                live.append(rollout)
            }
        }
        return live
    }

    /// Refuses to move or delete `distro` of `bundle` while a rollout of it applies: the
    /// move would end the rollout under the installs that took its candidate. A rollout
    /// that no longer applies (complete, or its control no longer the pointer) is no
    /// obstacle.
    public func checkNoLiveRollout(bundle: String, distro: String) throws {
        let index = try index()
        guard let rollout = try RolloutStore(catalog: self, bundle: bundle, distro: distro).current(catalogID: index.id)?.rollout,
            rollout.applies(whilePointerIs: index.bundles[bundle]?.distributions[distro])
        else { return }
        throw ZincError.rolloutConflict(
            bundle: bundle, distro: distro,
            reason: "a rollout of version \(rollout.candidate) is \(rollout.state); complete or halt it "
                + "(`zinc rollout complete` or `halt`), or pass --force to move the pointer anyway, which ends the rollout")
    }

    /// The candidates of the rollouts that apply under `index` (their controls are what
    /// the pointers name).
    func rolloutCandidates(in index: CatalogIndex) throws -> Set<BundleVersion> {
        Set(try liveRollouts(in: index).map { BundleVersion(bundle: $0.bundle, version: $0.candidate) })
    }
}
