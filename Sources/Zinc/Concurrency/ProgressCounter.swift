import Synchronization

/// A progress report: a phase, and how many items and bytes of it are done.
protocol CountedProgress: Sendable {
    associatedtype Phase: Sendable
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64)
}

/// Counts finished items across worker threads and reports each step, for the
/// progress displays of imports, verify and clean.
final class ProgressCounter<Progress: CountedProgress>: Sendable {
    private let phase: Progress.Phase
    private let totalItems: Int
    private let totalBytes: Int64
    private let report: (@Sendable (Progress) -> Void)?
    private let done = Mutex<(items: Int, bytes: Int64)>((0, 0))

    init(_ phase: Progress.Phase, totalItems: Int, totalBytes: Int64, report: (@Sendable (Progress) -> Void)?) {
        self.phase = phase
        self.totalItems = totalItems
        self.totalBytes = totalBytes
        self.report = report
    }

    func finishedItem(bytes count: Int64) {
        guard let report else { return }
        let (items, bytes) = done.withLock { done in
            done.items += 1
            done.bytes += count
            return done
        }
        report(Progress(phase: phase, completed: items, total: totalItems, completedBytes: bytes, totalBytes: totalBytes))
    }
}
