/// Options of a ``BundleImport`` (`update_bundle`).
public struct BundleImportOptions: Sendable {
    /// Create a version even when the files equal the newest version's.
    public var force: Bool
    public var flavorspec: Flavorspec?
    /// With flavors, also write the all-files archive.
    public var includeMasterArchive: Bool
    /// Told about each file as it is hashed and stored, for progress displays.
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Where to keep the stat cache (see `StatCache`); nil hashes every file every time.
    public var statCacheFolder: String?
    /// How many threads may hash, compress and copy at once; nil means one per core the
    /// process may use (its affinity mask and cgroup CPU quota count), and two per core
    /// to fill archives, whose lanes mostly wait on the disk.
    /// The catalog written is the same, byte for byte, whatever the number.
    public var workers: Int?
    /// gitignore patterns of paths to leave out, after the source's `.zincignore` (see
    /// `IgnorePatterns`).
    public var excludes: [String]
    /// Leave out `IgnorePatterns.defaults` (version-control folders, desktop clutter).
    public var defaultIgnores: Bool

    public init(
        force: Bool = false, flavorspec: Flavorspec? = nil, includeMasterArchive: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil, statCacheFolder: String? = nil,
        workers: Int? = nil, excludes: [String] = [], defaultIgnores: Bool = true
    ) {
        self.excludes = excludes
        self.defaultIgnores = defaultIgnores
        self.force = force
        self.flavorspec = flavorspec
        self.includeMasterArchive = includeMasterArchive
        self.progress = progress
        self.statCacheFolder = statCacheFolder
        self.workers = workers
    }
}
