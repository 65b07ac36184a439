/// What a ``BundleImport`` did (`run()`): `update_bundle --json` reports it.
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
