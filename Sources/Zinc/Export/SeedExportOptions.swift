/// Options of `export_seed`.
public struct SeedExportOptions: Sendable {
    /// Export only the files of this flavor.
    public var flavor: String?
    /// Told about each file as it is written (from worker threads), for progress displays.
    public var progress: (@Sendable (CloneProgress) -> Void)?
    /// How many threads may write files at once; nil means one per available core.
    public var workers: Int?

    public init(flavor: String? = nil, progress: (@Sendable (CloneProgress) -> Void)? = nil, workers: Int? = nil) {
        self.flavor = flavor
        self.progress = progress
        self.workers = workers
    }
}
