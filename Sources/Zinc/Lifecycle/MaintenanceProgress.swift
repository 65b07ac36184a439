import Foundation

/// Where a long maintenance run (`verify`, `clean`) is: its phase, and how many items
/// and bytes of that phase are done.
public struct MaintenanceProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case checkingObjects = "Checking objects"
        case checkingArchives = "Checking archives"
        case removing = "Removing"
    }

    public let phase: Phase
    public let completedItems: Int
    public let totalItems: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
}

/// Counts finished items across worker threads and reports each step.
final class MaintenanceProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private let phase: MaintenanceProgress.Phase
    private let totalItems: Int
    private let totalBytes: Int64
    private let report: (@Sendable (MaintenanceProgress) -> Void)?
    private var items = 0
    private var bytes: Int64 = 0

    init(_ phase: MaintenanceProgress.Phase, totalItems: Int, totalBytes: Int64,
         report: (@Sendable (MaintenanceProgress) -> Void)?) {
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
            return MaintenanceProgress(phase: phase, completedItems: items, totalItems: totalItems,
                                       completedBytes: bytes, totalBytes: totalBytes)
        })
    }
}
