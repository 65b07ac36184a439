/// Deletes every version of some bundles but the newest `keepLast`, never one a
/// distribution or `_DISTRO` pointer names, then cleans with `grace`, like restic's
/// `forget --keep-last` followed by `prune`.
///
/// ``plan()`` (the dry run) changes nothing and says what would be deleted, and which
/// files the deletions would free; ``run(progress:)`` makes the same plans and carries
/// them out, each step under its own lock: each bundle's versions are chosen inside the
/// index update that deletes them (see ``VersionDeletion``), so a distribution moved
/// meanwhile is respected, and the clean plans under the import lock it removes under
/// (see ``CatalogClean``).
public struct Prune: Sendable {
    private let catalog: Catalog
    private let bundles: [String]?
    private let keepLast: Int
    private let grace: Duration

    /// - Parameters:
    ///   - catalog: the catalog to prune.
    ///   - bundles: the bundles to prune; nil: every bundle.
    ///   - keepLast: how many of the newest versions of each bundle stay; at least 1.
    ///   - grace: how long a file stays after it left the index (see ``CatalogClean``).
    public init(_ catalog: Catalog, bundles: [String]? = nil, keepLast: Int, grace: Duration = Catalog.indexCacheLifetime) {
        self.catalog = catalog
        self.bundles = bundles
        self.keepLast = keepLast
        self.grace = grace
    }

    public func plan() throws -> PrunePlan {
        let (index, names) = try bundleNames()
        let deletions = try names.map { name in try deletion(of: name).plan(in: index) }
        let freed = try filesOf(deletions)
        let clean = try CatalogClean(catalog, grace: grace).plan(
            deleting: Set(freed.versions), retiring: deletions.flatMap(\.files))
        return try PrunePlan(
            deletions: deletions, keptReferenced: keptReferenced(after: deletions, in: index), clean: clean, freed: freed.files)
    }

    public func run(progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> PruneReport {
        let (_, names) = try bundleNames()
        let deletions = try names.map { name in try deletion(of: name).run() }
        let keptReferenced = try keptReferenced(after: deletions, in: catalog.index())
        let freed = try filesOf(deletions)
        let clean = try CatalogClean(catalog, grace: grace).run(progress: progress)
        return PruneReport(deletions: deletions, keptReferenced: keptReferenced, clean: clean, freed: freed.files, performed: true)
    }

    /// The index, and the bundles to prune in it (each checked to exist).
    private func bundleNames() throws -> (CatalogIndex, [String]) {
        guard keepLast >= 1 else {
            throw ZincError.pruneKeepsNoVersion(keepLast: keepLast)
        }
        let index = try catalog.index()
        let names =
            try bundles.map { names in
                try names.map { name in
                    _ = try index.bundle(name); return name
                }
            }
            ?? index.bundles.keys.sorted()
        return (index, names)
    }

    private func deletion(of bundle: String) -> VersionDeletion {
        VersionDeletion(catalog, bundle: bundle, versions: [.beyondNewest(keepLast)])
    }

    /// Per bundle, the versions outside the policy that `index` still lists once the
    /// deletions are made: those a distribution names.
    private func keptReferenced(after deletions: [BundleDeletion], in index: CatalogIndex) throws -> [String: [Int]] {
        var kept = [String: [Int]]()
        for deletion in deletions {
            let entry = try index.bundle(deletion.bundle)
            let outside = entry.versions.sorted(by: >).dropFirst(keepLast).filter { !deletion.versions.contains($0) }
            if !outside.isEmpty { kept[deletion.bundle] = outside.sorted() }
        }
        return kept
    }

    /// The deleted versions, and every file their manifests make part of the catalog
    /// (read before a real clean removes them).
    private func filesOf(_ deletions: [BundleDeletion]) throws -> (versions: [BundleVersion], files: Set<String>) {
        let versions = deletions.flatMap { deletion in deletion.versions.map { BundleVersion(bundle: deletion.bundle, version: $0) } }
        var files = Set(deletions.flatMap(\.files))
        for version in versions {
            files.formUnion(
                CatalogReferences.files(of: try catalog.manifest(bundle: version.bundle, version: version.version), withArchives: true))
        }
        return (versions, files)
    }
}
