import Foundation
import ZincClient

extension SyncOptions {
    /// Reports the sync to `progress`, the `Foundation.Progress` an app's views observe
    /// (`ProgressView(progress)`, or a child of the app's own): its total is the bytes
    /// of every bundle's objects to download and its completed count the bytes arrived
    /// (``SyncProgress/overallTotalBytes``, ``SyncProgress/overallCompletedBytes``), at
    /// most ten updates a second. The total may grow as the sync reaches another catalog
    /// and shrink when a bundle fails; a sync with nothing to download leaves it at 0 of 0.
    /// Cancelling `progress` cancels the sync. `progress` (the closure) is still told
    /// each bundle's steps.
    ///
    ///     let progress = Progress()
    ///     var options = SyncOptions(sourceFactory: transport.sourceFactory)
    ///     options.report(to: progress)
    ///     let report = try await repo.sync(options: options)
    public mutating func report(to progress: Progress) {
        progress.kind = .file
        #if canImport(Darwin)
        progress.fileOperationKind = .downloading  // swift-corelibs-foundation has none
        #endif
        let cancellation = self.cancellation ?? SyncCancellation()
        self.cancellation = cancellation
        progress.cancellationHandler = { cancellation.cancel() }
        let told = self.progress
        self.progress = { update in
            told?(update)
            progress.totalUnitCount = update.overallTotalBytes
            progress.completedUnitCount = update.overallCompletedBytes
        }
    }
}
