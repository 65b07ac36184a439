import Zinc

extension ProgressBar {
    /// Draws where `verify` or `clean` is, one line per phase.
    func show(_ progress: MaintenanceProgress) {
        update(
            progress.phase.rawValue, files: progress.completedItems, of: progress.totalItems,
            bytes: progress.completedBytes, of: progress.totalBytes)
    }
}
