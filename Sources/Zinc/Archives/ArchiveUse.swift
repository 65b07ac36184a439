/// Which versions' archives are in use: the versions a distribution or its `_D` pointer
/// names (every listed version when the catalog keeps all, see `ArchivePolicy`). Old
/// clients download the archive of the version their distribution names; a rollback to
/// `_D` must find its archive too, without waiting for a rebuild.
///
/// An archive is in use from before a pointer names its version until the grace period
/// after none does: pointers move only through ``Catalog/movePointers(_:)``, which
/// writes the archives a change is about to need first (archive durable, then the
/// pointer, as for every file), and records the archives it takes out of use (see
/// `RetirementRecords`) so that `clean` waits the grace period from then.
extension CatalogIndex {
    /// The versions some distribution or `_D` pointer names.
    var pointedVersions: Set<BundleVersion> {
        var pointed = Set<BundleVersion>()
        for (name, bundle) in bundles {
            for version in bundle.distributions.values { pointed.insert(BundleVersion(bundle: name, version: version)) }
        }
        return pointed
    }

    /// The versions that pointers set or moved from `before` name: a promotion names a
    /// version another pointer named already, whose archive should exist but may not
    /// (removed by hand, or a catalog written by another tool), and the pointer it moves
    /// must not name a version without one.
    func pointerTargets(changedFrom before: CatalogIndex) -> Set<BundleVersion> {
        var targets = Set<BundleVersion>()
        for (name, bundle) in bundles {
            let earlier = before.bundles[name]?.distributions ?? [:]
            for (distro, version) in bundle.distributions where earlier[distro] != version {
                targets.insert(BundleVersion(bundle: name, version: version))
            }
        }
        return targets
    }
}

extension Catalog {
    /// How many times the versions a pointer change names may change under it before it
    /// gives up: each time, their archives are written again before the swap.
    private static let pointerAttempts = 16

    /// Changes distribution pointers by `change` (run on the index as it is, perhaps more
    /// than once): first writes the archives of every version a pointer it sets names,
    /// then swaps the index, only if the swap names no version whose archives were not
    /// written. Holds the import lock shared throughout, so that no `clean` removes an
    /// archive between its check and the swap. Returns `change`'s result from the swap.
    func movePointers<R>(_ change: (inout CatalogIndex) throws -> R) throws -> R {
        try storage.withImportLock(exclusive: false) { lock in
            let recordsUse = try archivePolicy() == .pointed
            var ready = Set<BundleVersion>()
            for _ in 0..<Self.pointerAttempts {
                let current = try index()
                let before = current.pointedVersions
                var planned = current
                // A change that cannot be made throws from the swap below, which repairs
                // lagging index copies first (as every writing command does).
                if (try? change(&planned)) == nil { planned = current }
                let leaving = before.subtracting(planned.pointedVersions)
                let named = planned.pointerTargets(changedFrom: current).subtracting(ready)
                // A change a signed catalog refuses writes nothing, archives and records included.
                if !named.isEmpty || (recordsUse && !leaving.isEmpty) { try CommitSigning(catalog: self).checkUnsignedChangeAllowed() }
                for item in named {
                    try writeMissingArchives(bundle: item.bundle, version: item.version)
                    ready.insert(item)
                }
                // Before the swap as well as after: a kill between the swap and the second
                // record must not leave an older record (from an earlier time out of use)
                // as the one that says when these archives left use.
                if recordsUse { try retireArchives(of: leaving) }
                try lock.confirm()
                let swapped = try updateIndex { index -> (result: R, leaving: Set<BundleVersion>)? in
                    let before = index.pointedVersions
                    var updated = index
                    let result = try change(&updated)
                    guard updated.pointedVersions.subtracting(before).isSubset(of: ready) else { return nil }
                    index = updated
                    return (result, before.subtracting(updated.pointedVersions))
                }
                guard let swapped else { continue }
                if recordsUse { try retireArchives(of: swapped.leaving) }
                return swapped.result
            }
            throw ZincError.indexKeptChanging(location: storage.location, attempts: Self.pointerAttempts)
        }
    }

    /// Records the archives of `versions`, as they are stored, as leaving use now.
    func retireArchives(of versions: Set<BundleVersion>) throws {
        guard !versions.isEmpty else { return }
        let archives = try storage.list("archives").filter { path in
            versions.contains { VersionFiles(bundle: $0.bundle, version: $0.version).isArchive(path) }
        }
        try RetirementRecords(storage: storage).record(archives)
    }
}
