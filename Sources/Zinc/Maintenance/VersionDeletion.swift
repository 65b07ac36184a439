/// Deletes versions of a bundle from the index, and records that their manifests and
/// archives left it: a client may hold an index that lists them for the index's cache
/// lifetime, so a clean removes them only after that (and their objects once no version
/// uses them). Refuses, deleting nothing, when a distribution (or `_prev` pointer) refers
/// to one of them. `next_version` stays, even when no version is left, so numbers are
/// never reused.
///
/// ``plan()`` (the dry run) says which versions and files the current index makes that;
/// ``run()`` plans again inside the index update that deletes them, so what it deletes is
/// chosen from the index it replaces, never from one another writer has changed since.
public struct VersionDeletion: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let versions: [VersionSelection]

    public init(_ catalog: Catalog, bundle: String, versions: [VersionSelection]) {
        self.catalog = catalog
        self.bundle = bundle
        self.versions = versions
    }

    public func plan() throws -> BundleDeletion {
        try plan(in: catalog.index())
    }

    /// What deleting from `index` would delete.
    func plan(in index: CatalogIndex) throws -> BundleDeletion {
        try deletion(of: indexChange(of: index, rollouts: try catalog.liveRollouts(in: index)))
    }

    public func run() throws -> BundleDeletion {
        let change = try catalog.updateIndex { index in
            let change = try indexChange(of: index, rollouts: try catalog.liveRollouts(in: index))
            index = change.index
            return change
        }
        let deletion = try deletion(of: change)
        try RetirementRecords(storage: catalog.storage).record(deletion.files)
        return deletion
    }

    /// The versions chosen in one index, and that index without them.
    private struct IndexChange {
        let versions: [Int]
        let removesLastVersion: Bool
        let index: CatalogIndex
    }

    /// `rollouts`: those that apply under `index`, whose candidates are referenced too.
    private func indexChange(of index: CatalogIndex, rollouts: [Rollout]) throws -> IndexChange {
        var entry = try index.bundle(bundle)
        let candidates = rollouts.filter { $0.bundle == bundle }
        func references(to version: Int) -> [String] {
            entry.distributions(pointingAt: version)
                + candidates.filter { $0.candidate == version }.map { "\($0.distro) (its rollout's candidate)" }
        }
        var chosen = Set<Int>()
        for selection in versions {
            switch selection {
            case .spec(let spec): chosen.insert(try spec.resolve(in: entry, name: bundle))
            case .all: chosen.formUnion(entry.versions)
            case .unreferenced: chosen.formUnion(entry.versions.filter { references(to: $0).isEmpty })
            case .beyondNewest(let count):
                chosen.formUnion(entry.versions.sorted(by: >).dropFirst(max(0, count)).filter { references(to: $0).isEmpty })
            }
        }
        let versions = chosen.sorted()
        var referenced = [Int: [String]]()
        for version in versions {
            let distros = references(to: version)
            if !distros.isEmpty { referenced[version] = distros }
        }
        guard referenced.isEmpty else { throw ZincError.versionsReferenced(bundle: bundle, distributions: referenced) }

        var updated = index
        entry.versions.removeAll(where: chosen.contains)
        if entry.versions.isEmpty { entry.distributions = [:] }
        updated.bundles[bundle] = entry
        return IndexChange(versions: versions, removesLastVersion: entry.versions.isEmpty, index: updated)
    }

    /// The deletion a change makes, with its files.
    private func deletion(of change: IndexChange) throws -> BundleDeletion {
        BundleDeletion(
            bundle: bundle, versions: change.versions, removesLastVersion: change.removesLastVersion,
            files: try files(ofVersions: change.versions))
    }

    /// The manifests, then the archives (every flavor's), of some versions of the bundle.
    private func files(ofVersions versions: [Int]) throws -> [String] {
        guard !versions.isEmpty else { return [] }
        let storage = catalog.storage
        var files = [String]()
        let versionFiles = versions.map { VersionFiles(bundle: bundle, version: $0) }
        for version in versionFiles {
            files += try version.documents.filter { try storage.exists($0) }
        }
        let archives = try storage.list("archives")
        for version in versionFiles {
            files += archives.filter(version.isArchive)
        }
        return files
    }
}
