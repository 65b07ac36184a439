/// Options of `clone_bundle`.
public struct BundleCloneOptions: Sendable {
    /// Clone only the files of this flavor.
    public var flavor: String?
    /// Also write the version's manifest beside the bundle folder, as `<folder>.json`.
    public var includeManifest: Bool
    /// Told about each file as it is written (from worker threads), for progress displays.
    public var progress: (@Sendable (CloneProgress) -> Void)?
    /// How many threads may write files at once; nil means one per available core.
    public var workers: Int?

    public init(
        flavor: String? = nil, includeManifest: Bool = false, progress: (@Sendable (CloneProgress) -> Void)? = nil,
        workers: Int? = nil
    ) {
        self.flavor = flavor
        self.includeManifest = includeManifest
        self.progress = progress
        self.workers = workers
    }
}
