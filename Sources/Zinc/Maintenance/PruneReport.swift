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

extension PruneReport {
    /// The report of `deletions` followed by `clean`, with what of it the deletions
    /// freed: `freed`, every file of the deleted versions (read before a clean removed them).
    init(
        deletions: [BundleDeletion], keptReferenced: [String: [Int]], clean: CleanReport, freed: Set<String>,
        performed: Bool
    ) {
        let wouldFree = (clean.files + clean.waiting).filter { file in
            freed.contains(SignedManifest.path(ofSignature: file.path) ?? file.path)
        }
        self.init(
            deletions: deletions, keptReferenced: keptReferenced, clean: clean, wouldFree: wouldFree, performed: performed)
    }
}
