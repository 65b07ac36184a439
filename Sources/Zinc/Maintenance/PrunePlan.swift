/// What a ``Prune`` would do now: the versions each bundle would lose, and the clean that
/// would follow, planned as ``VersionDeletion`` and ``CatalogClean`` plan theirs. A run
/// makes the same plans, each under the lock it carries it out under (the index update
/// for a bundle's versions, so a distribution moved meanwhile is respected; the import
/// lock for the clean).
public struct PrunePlan: Sendable {
    /// Per bundle looked at, the versions that would be deleted.
    public let deletions: [BundleDeletion]
    /// The versions outside the policy kept because a distribution (or `_DISTRO`
    /// pointer) names them, per bundle.
    public let keptReferenced: [String: [Int]]
    /// The clean that would follow the deletions at this moment: their versions no longer
    /// referenced, their manifests and archives recorded as leaving the index now.
    public let clean: CleanPlan
    /// Every file of the deleted versions.
    let freed: Set<String>

    /// The plan as a dry run reports it.
    public var report: PruneReport {
        PruneReport(deletions: deletions, keptReferenced: keptReferenced, clean: clean.report, freed: freed, performed: false)
    }
}
