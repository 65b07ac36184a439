import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// A failed write-back is reported to one flush only: whichever flush meets it must
/// fail the command, and nothing may refer to what was not made durable.
@Suite struct FlushFailureTests {
    struct DiskFailed: Error, Equatable {}

    @Test func aFlushOnItsOwnThreadThrowsItsErrorToEveryWait() throws {
        let storage = MemoryStorage()
        storage.flushError = DiskFailed()
        let pending = storage.startFlush()
        #expect(throws: DiskFailed()) { try pending.wait() }
        #expect(throws: DiskFailed()) { try pending.wait() }
        storage.flushError = nil
        try storage.startFlush().wait()
    }

    @Test func backgroundFlushesThrowTheirErrorOnceTheBatchIsWritten() throws {
        let storage = MemoryStorage()
        storage.flushError = DiskFailed()
        var wrote = false
        #expect(throws: DiskFailed()) {
            try storage.withBackgroundFlushes {
                // Long enough for the 0.1 s flusher to run at least once.
                Thread.sleep(forTimeInterval: 0.3)
                wrote = true
            }
        }
        #expect(wrote)
    }

    @Test func anImportWhoseObjectsCannotBeFlushedCommitsNoVersion() throws {
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.flush", in: storage)
        storage.flushError = DiskFailed()
        #expect(throws: DiskFailed()) { try catalog.updateBundle("B", from: dir.at("src")) }
        storage.flushError = nil
        #expect(try catalog.index().bundles["B"]?.versions ?? [] == [])
        #expect(try storage.list("manifests") == [])
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 2))
    }
}
