import Synchronization
import Testing

@testable import ZincClient

/// The reports a sync's meter sends as a bundle ends.
@Suite struct SyncMeterTests {
    /// A bundle finished whose switch then failed is ended again: its one report stands.
    @Test func aBundleEndedTwiceIsReportedOnce() {
        let reports = Mutex([SyncProgress]())
        let meter = SyncMeter { progress in reports.withLock { $0.append(progress) } }
        meter.expect(100)
        meter.downloading("c.B-1", objects: 1, bytes: 100)
        meter.finished(objects: 1, bytes: 100)
        meter.ended("c.B-1", expected: 100, finished: true)
        meter.ended("c.B-1", expected: 100, finished: false)
        let phases = reports.withLock { $0.map(\.phase) }
        #expect(phases == [.downloading, .downloading, .finished])
        #expect(reports.withLock { $0.last.map { [$0.overallCompletedBytes, $0.overallTotalBytes] } } == [100, 100])
    }

    /// A bundle that fails before its download starts leaves the total, in a report of its own.
    @Test func aBundleThatFailsBeforeItsDownloadIsReportedFailed() {
        let reports = Mutex([SyncProgress]())
        let meter = SyncMeter { progress in reports.withLock { $0.append(progress) } }
        meter.expect(100)
        meter.expect(50)
        meter.downloading("c.A-1", objects: 1, bytes: 100)
        meter.finished(objects: 1, bytes: 100)
        meter.ended("c.A-1", expected: 100, finished: true)
        meter.ended("c.B-1", expected: 50, finished: false)
        let last = reports.withLock { $0.last }
        #expect(last?.phase == .failed && last?.bundle == "c.B-1")
        #expect(last.map { [$0.overallCompletedBytes, $0.overallTotalBytes, $0.totalBytes] } == [100, 100, 0])
    }
}
