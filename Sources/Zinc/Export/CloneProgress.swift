/// How far a clone is. Bytes are the stored bytes read from the catalog (the compressed
/// size for gz objects), the only sizes a manifest records.
public struct CloneProgress: Sendable, CountedProgress {
    public let completedFiles: Int
    public let totalFiles: Int
    public let completedBytes: Int64
    public let totalBytes: Int64

    /// A clone has a single phase.
    init(phase: Void, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64) {
        completedFiles = completed
        totalFiles = total
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }
}
