/// Where a long maintenance run (`verify`, `clean`, `publish`) is: its phase, and how many items
/// and bytes of that phase are done.
public struct MaintenanceProgress: Sendable, Equatable {
    /// The step of the work; its raw value is what a progress bar shows.
    public enum Phase: String, Sendable {
        case checkingObjects = "Checking objects"
        case checkingArchives = "Checking archives"
        case removing = "Removing"
        case uploading = "Uploading"
        case signing = "Signing manifests"
    }

    public let phase: Phase
    public let completedItems: Int
    public let totalItems: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
}

extension MaintenanceProgress: CountedProgress {
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64) {
        self.init(phase: phase, completedItems: completed, totalItems: total, completedBytes: completedBytes, totalBytes: totalBytes)
    }
}
