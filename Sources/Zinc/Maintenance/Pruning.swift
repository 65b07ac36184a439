/// What `prune` did, or would do in a dry run.
public struct PruneReport: Equatable, Sendable {
    /// Per bundle looked at, the versions deleted (none when the policy keeps them all).
    public let deletions: [BundleDeletion]
    /// The versions outside the policy kept because a distribution (or `_DISTRO`
    /// pointer) names them, per bundle.
    public let keptReferenced: [String: [Int]]
    /// The clean that followed; nil in a dry run.
    public let clean: CleanReport?
    /// In a dry run, the files the deletions would leave unreferenced (what a clean
    /// would remove once the grace period has passed), with their sizes.
    public let wouldFree: [CleanReport.Garbage]

    public var deletedVersions: Int { deletions.reduce(0) { $0 + $1.versions.count } }
}

extension Catalog {
    /// Deletes every version of `bundles` (nil: every bundle) but the newest `keepLast`,
    /// never one a distribution or `_DISTRO` pointer names, then cleans with `grace`,
    /// like restic's `forget --keep-last` followed by `prune`. Each bundle's versions are
    /// chosen inside the index update, so a distribution moved meanwhile is respected.
    /// A dry run changes nothing and says which files the deletions would free.
    public func prune(
        bundles: [String]? = nil, keepLast: Int, dryRun: Bool = false,
        grace: Duration = Catalog.indexCacheLifetime,
        progress: (@Sendable (MaintenanceProgress) -> Void)? = nil
    ) throws -> PruneReport {
        guard keepLast >= 1 else {
            throw ZincError.pruneKeepsNoVersion(keepLast: keepLast)
        }
        let index = try self.index()
        let names =
            try bundles.map { names in
                try names.map { name in
                    _ = try index.bundle(name); return name
                }
            }
            ?? index.bundles.keys.sorted()
        var deletions = [BundleDeletion]()
        var keptReferenced = [String: [Int]]()
        for name in names {
            let deletion = try deleteVersions(of: name, [.beyondNewest(keepLast)], dryRun: dryRun)
            deletions.append(deletion)
            let entry = try (dryRun ? index : self.index()).bundle(name)
            let outside = entry.versions.sorted(by: >).dropFirst(keepLast).filter { !deletion.versions.contains($0) }
            if !outside.isEmpty { keptReferenced[name] = outside.sorted() }
        }
        if dryRun {
            return PruneReport(
                deletions: deletions, keptReferenced: keptReferenced, clean: nil,
                wouldFree: try filesFreed(by: deletions))
        }
        let clean = try self.clean(force: true, grace: grace, progress: progress)
        return PruneReport(deletions: deletions, keptReferenced: keptReferenced, clean: clean, wouldFree: [])
    }

    /// The files of the deleted versions that no other listed version refers to.
    private func filesFreed(by deletions: [BundleDeletion]) throws -> [CleanReport.Garbage] {
        let deleted = Set(deletions.flatMap { deletion in deletion.versions.map { BundleVersion(bundle: deletion.bundle, version: $0) } })
        guard !deleted.isEmpty else { return [] }
        let stillReferenced = try referencedFiles(excluding: deleted)
        var freed = Set<String>()
        for version in deleted {
            freed.formUnion(Self.files(of: try manifest(bundle: version.bundle, version: version.version)))
        }
        return try freed.subtracting(stillReferenced).sorted().compactMap { path in
            try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) }
        }
    }
}
