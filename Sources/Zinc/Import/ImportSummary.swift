/// What an import did: `update_bundle --json` reports it.
public struct ImportSummary: Equatable, Sendable {
    public let result: BundleUpdateResult
    /// The version created is the bundle's version 1: the bundle is new (a mistyped name
    /// makes one).
    public let isNewBundle: Bool
    /// Files in the version imported (or found unchanged).
    public let files: Int
    /// Objects this import wrote to the catalog (not those it found stored), and their bytes.
    public let newObjects: Int
    public let objectBytes: Int64
    /// The new version's archives (all flavors'), 0 when nothing was created.
    public let archiveBytes: Int64
    /// Everything written: objects, archives, the manifest (plain and gzipped) and the
    /// LMFO record; the index files are not counted.
    public let bytesWritten: Int64
}

/// What an import would do (`update_bundle --dry-run`), found without writing anything:
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
