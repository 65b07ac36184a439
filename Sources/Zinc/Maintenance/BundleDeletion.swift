/// The versions a ``VersionDeletion`` removes from the index, and their files: its plan,
/// which a dry run (`delete_bundle --dry-run`) reports and a run carries out.
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
