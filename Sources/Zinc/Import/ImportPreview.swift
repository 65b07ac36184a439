/// What a ``BundleImport`` would do (`preview()`, `update_bundle --dry-run`), found without writing anything:
/// the tree is scanned and hashed, and compared with the newest version.
public struct ImportPreview: Equatable, Sendable {
    /// The version it would be compared with, nil for a bundle without versions.
    public let previousVersion: Int?
    /// Paths, byte order: new in the tree, gone from it, and with other content (or flavors).
    public let added: [String]
    public let removed: [String]
    public let changed: [String]
    public let files: Int
    /// What the version would add to storage and what a player on `previousVersion`
    /// would download, at most (see `Catalog.previewGrowth`); its `newObjects` are the
    /// distinct contents the catalog lacks, and `objectBytes` their size before any
    /// compression (what compresses is stored smaller).
    public let growth: VersionGrowth

    /// Nothing would be created (without --force).
    public var isUnchanged: Bool { previousVersion != nil && added.isEmpty && removed.isEmpty && changed.isEmpty }
}
