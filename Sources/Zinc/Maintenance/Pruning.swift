/// What `prune` did, or would do in a dry run.
public struct PruneReport: Equatable, Sendable {
    /// Per bundle looked at, the versions deleted (none when the policy keeps them all).
    public let deletions: [BundleDeletion]
    /// The versions outside the policy kept because a distribution (or `_DISTRO`
    /// pointer) names them, per bundle.
    public let keptReferenced: [String: [Int]]
    /// The clean that followed or, in a dry run, the clean that would follow the
    /// deletions at this moment: the same plan a real prune carries out.
    public let clean: CleanReport
    /// The files the deletions leave unreferenced (removed by this clean, or by a later
    /// one once the grace period has passed), with their sizes, manifest signatures
    /// among them.
    public let wouldFree: [CleanReport.Garbage]
    /// False for a dry run.
    public let performed: Bool

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
        let freed = try filesOf(deletions)
        let clean: CleanReport
        if dryRun {
            // What `clean` would find once the deletions are made: their versions no
            // longer referenced, their manifests and archives recorded as leaving now.
            clean = try storage.withImportLock(exclusive: true) { _ in
                try planClean(
                    referenced: referencedFiles(excluding: Set(freed.versions)), grace: grace,
                    retiring: deletions.flatMap(\.files)
                ).report(removed: false)
            }
        } else {
            clean = try self.clean(force: true, grace: grace, progress: progress)
        }
        let wouldFree = (clean.files + clean.waiting).filter { file in
            freed.files.contains(ManifestSignature.manifestPath(ofSignature: file.path) ?? file.path)
        }
        return PruneReport(
            deletions: deletions, keptReferenced: keptReferenced, clean: clean, wouldFree: wouldFree, performed: !dryRun)
    }

    /// The deleted versions, and every file their manifests make part of the catalog
    /// (read before a real clean removes them).
    private func filesOf(_ deletions: [BundleDeletion]) throws -> (versions: [BundleVersion], files: Set<String>) {
        let versions = deletions.flatMap { deletion in deletion.versions.map { BundleVersion(bundle: deletion.bundle, version: $0) } }
        var files = Set(deletions.flatMap(\.files))
        for version in versions {
            files.formUnion(Self.files(of: try manifest(bundle: version.bundle, version: version.version)))
        }
        return (versions, files)
    }
}
