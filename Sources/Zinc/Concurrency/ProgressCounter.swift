import Foundation

/// A progress report: a phase, and how many items and bytes of it are done.
protocol CountedProgress: Sendable {
    associatedtype Phase: Sendable
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64)
}

/// Counts finished items across worker threads and reports each step, for the
/// progress displays of imports, verify and clean.
final class ProgressCounter<Progress: CountedProgress>: @unchecked Sendable {
    private let lock = NSLock()
    private let phase: Progress.Phase
    private let totalItems: Int
    private let totalBytes: Int64
    private let report: (@Sendable (Progress) -> Void)?
    private var items = 0
    private var bytes: Int64 = 0

    init(_ phase: Progress.Phase, totalItems: Int, totalBytes: Int64, report: (@Sendable (Progress) -> Void)?) {
        self.phase = phase
        self.totalItems = totalItems
        self.totalBytes = totalBytes
        self.report = report
    }

    func finishedItem(bytes count: Int64) {
        guard let report else { return }
        report(lock.withLock {
            items += 1
            bytes += count
            return Progress(phase: phase, completed: items, total: totalItems, completedBytes: bytes, totalBytes: totalBytes)
        })
    }
}
