/// How `delete_bundle` names versions: anything `VersionSpec` takes (a number, `latest`,
/// `@DISTRO`), `all`, or `unreferenced` (the versions no distro or `_prev` pointer names).
/// The Python tool's `:all`, `:unreferenced` and `:latest` work too.
public enum VersionSelection: Equatable, Sendable {
    case spec(VersionSpec)
    case all
    case unreferenced
    /// Every version but the newest `count`, except those a distribution (or `_DISTRO`
    /// pointer) names: what `prune --keep-last` deletes.
    case beyondNewest(Int)

    public init(_ text: String) throws {
        switch text {
        case "all", ":all": self = .all
        case "unreferenced", ":unreferenced": self = .unreferenced
        default: self = .spec(try VersionSpec(text))
        }
    }
}

/// What `delete_bundle` did, or would do in a dry run.
public struct BundleDeletion: Equatable, Sendable {
    public let bundle: String
    /// Ascending; empty when the selection named nothing (`unreferenced` with every
    /// version referenced).
    public let versions: [Int]
    /// No version is left. The bundle keeps its entry in the index (no versions, no
    /// distributions, its `next_version`), so its version numbers are never used again.
    public let removesLastVersion: Bool
    /// The manifests and archives of those versions. They stay for clients that read the
    /// index before the deletion, until `clean` removes them (see `RetirementRecords`).
    public let files: [String]
}

extension Catalog {
    /// Deletes versions of `bundle` from the index, and records that their manifests and
    /// archives left it: a client may hold an index that lists them for the index's cache
    /// lifetime, so `clean` removes them only after that (and their objects once no
    /// version uses them). Refuses, deleting nothing, when a distribution (or `_prev`
    /// pointer) refers to one of them. `next_version` stays, even when no version is
    /// left, so numbers are never reused.
    public func deleteVersions(
        of bundle: String, _ selections: [VersionSelection],
        dryRun: Bool = false
    ) throws -> BundleDeletion {
        if dryRun {
            let plan = try Self.planDeletion(selections, of: bundle, in: index())
            return BundleDeletion(
                bundle: bundle, versions: plan.versions, removesLastVersion: plan.removesLastVersion,
                files: try files(ofVersions: plan.versions, of: bundle))
        }
        let plan = try updateIndex { index in
            let plan = try Self.planDeletion(selections, of: bundle, in: index)
            index = plan.index
            return plan
        }
        let files = try files(ofVersions: plan.versions, of: bundle)
        try RetirementRecords(storage: storage).record(files)
        return BundleDeletion(bundle: bundle, versions: plan.versions, removesLastVersion: plan.removesLastVersion, files: files)
    }

    private struct DeletionPlan {
        let versions: [Int]
        let removesLastVersion: Bool
        /// The index without those versions.
        let index: CatalogIndex
    }

    private static func planDeletion(
        _ selections: [VersionSelection], of bundle: String,
        in index: CatalogIndex
    ) throws -> DeletionPlan {
        var entry = try index.bundle(bundle)
        var chosen = Set<Int>()
        for selection in selections {
            switch selection {
            case .spec(let spec): chosen.insert(try spec.resolve(in: entry, name: bundle))
            case .all: chosen.formUnion(entry.versions)
            case .unreferenced: chosen.formUnion(entry.versions.filter { entry.distributions(pointingAt: $0).isEmpty })
            case .beyondNewest(let count):
                chosen.formUnion(
                    entry.versions.sorted(by: >).dropFirst(max(0, count)).filter { entry.distributions(pointingAt: $0).isEmpty })
            }
        }
        let versions = chosen.sorted()
        var referenced = [Int: [String]]()
        for version in versions {
            let distros = entry.distributions(pointingAt: version)
            if !distros.isEmpty { referenced[version] = distros }
        }
        guard referenced.isEmpty else { throw ZincError.versionsReferenced(bundle: bundle, distributions: referenced) }

        var updated = index
        entry.versions.removeAll(where: chosen.contains)
        if entry.versions.isEmpty { entry.distributions = [:] }
        updated.bundles[bundle] = entry
        return DeletionPlan(versions: versions, removesLastVersion: entry.versions.isEmpty, index: updated)
    }

    /// The manifests, then the archives (every flavor's), of some versions of `bundle`.
    private func files(ofVersions versions: [Int], of bundle: String) throws -> [String] {
        guard !versions.isEmpty else { return [] }
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
