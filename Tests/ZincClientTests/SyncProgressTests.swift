import Foundation
import Synchronization
import Testing
import Zinc
import ZincClient
import ZincTestSupport
import ZincURLSession

/// What an app shows of a sync: the overall bytes beside each bundle's, reported often
/// enough during a long download, and a `Foundation.Progress` that ends complete.
@Suite struct SyncProgressTests {
    /// Three bundles of one catalog, tracked in an empty repo; `A`'s archive is the big
    /// one, sent over a second and a half when `dripping`.
    final class Fixture {
        static let bundles = ["A", "B", "C"]
        let dir: TemporaryDirectory
        let server: HostileHTTPServer
        let repo: Repo
        let catalog: Catalog

        init(dripping: Bool = false) throws {
            dir = try TemporaryDirectory()
            catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
            for (name, size) in zip(Self.bundles, [400_000, 60_000, 90_000]) {
                try dir.write("src/\(name)/data.bin", SampleContent.noise(size, seed: UInt64(size)))
                try dir.write("src/\(name)/notes.txt", SampleContent.text(3000, word: name))
                _ = try catalog.updateBundle(name, from: dir.at("src/\(name)"))
                try DistroUpdate(catalog, bundle: name, distro: "master", to: .number(1)).run()
            }
            server = try HostileHTTPServer(serving: dir.at("cat"))
            if dripping { server.drip("archives/A-1.tar", over: 1.5) }
            repo = try Repo.initialize(at: dir.at("repo"))
            for name in Self.bundles { try repo.track(url: server.url, bundle: name, options: options) }
        }

        deinit { server.stop() }

        var options: SyncOptions { SyncOptions(strategy: .archive, sourceFactory: ClientTransport.standard.sourceFactory) }
    }

    @Test func theOverallTotalIsKnownAtTheFirstDownloadAndReachedAtTheEnd() throws {
        let fixture = try Fixture(dripping: true)
        let reports = Mutex([(at: ContinuousClock.Instant, progress: SyncProgress)]())
        var options = fixture.options
        options.progress = { progress in reports.withLock { $0.append((.now, progress)) } }
        let report = try SyncEngine(repo: fixture.repo, options: options).sync()
        #expect(report.bundles.map(\.outcome) == [.updated, .updated, .updated])
        let objectBytes = report.bundles.reduce(0) { $0 + $1.objectBytes }
        let all = reports.withLock { $0 }
        let updates = all.map(\.progress)

        // Every bundle is planned before the first byte, which the total then counts whole.
        let firstDownload = try #require(updates.firstIndex { $0.phase == .downloading })
        #expect(updates[..<firstDownload].filter { $0.phase == .planning }.count == Fixture.bundles.count)
        #expect(updates[firstDownload].overallTotalBytes == objectBytes && objectBytes > 400_000)
        #expect(updates[firstDownload...].allSatisfy { $0.overallTotalBytes == objectBytes })
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.overallCompletedBytes <= $1.overallCompletedBytes })
        #expect(updates.allSatisfy { $0.overallCompletedBytes <= $0.overallTotalBytes })
        let last = try #require(updates.last)
        #expect(last.phase == .finished && last.overallCompletedBytes == objectBytes)

        // Each bundle's own figures, complete when it finishes.
        let finished = updates.filter { $0.phase == .finished }
        #expect(finished.map(\.bundle) == Fixture.bundles.map { "com.example.app.\($0)-1" })
        for (bundle, sync) in zip(finished, report.bundles) {
            #expect(bundle.completedBytes == bundle.totalBytes && bundle.totalBytes == sync.objectBytes)
            #expect(bundle.completedObjects == bundle.totalObjects && bundle.totalObjects > 0)
        }

        // While A's archive drips, a report comes every tenth of a second (with slack for a busy machine).
        let dripping = all.filter { $0.progress.phase == .downloading && $0.progress.bundle.hasSuffix(".A-1") }
        #expect(dripping.count >= 5)
        let gaps = zip(dripping, dripping.dropFirst()).map { $1.at - $0.at }
        #expect(gaps.allSatisfy { $0 <= .milliseconds(350) }, "\(gaps)")
        #expect(dripping.filter { $0.progress.completedBytes > 0 && $0.progress.completedBytes < $0.progress.totalBytes }.count >= 3)
    }

    /// Planned before `A` downloads, `B` counted the object they share among those to
    /// fetch: it is planned again, and the object is fetched once.
    @Test func anObjectTwoBundlesShareIsFetchedOnce() throws {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        let shared = SampleContent.noise(50_000, seed: 7)
        for name in ["A", "B"] {
            try dir.write("src/\(name)/shared.bin", shared)
            try dir.write("src/\(name)/own.txt", SampleContent.text(2000, word: name))
            _ = try catalog.updateBundle(name, from: dir.at("src/\(name)"))
            try DistroUpdate(catalog, bundle: name, distro: "master", to: .number(1)).run()
        }
        let server = try HostileHTTPServer(serving: dir.at("cat"))
        defer { server.stop() }
        let repo = try Repo.initialize(at: dir.at("repo"))
        let options = SyncOptions(strategy: .objects, sourceFactory: ClientTransport.standard.sourceFactory)
        for name in ["A", "B"] { try repo.track(url: server.url, bundle: name, options: options) }
        let last = Mutex<SyncProgress?>(nil)
        var listened = options
        listened.progress = { progress in last.withLock { $0 = progress } }
        let report = try SyncEngine(repo: repo, options: listened).sync()
        #expect(report.bundles.map(\.outcome) == [.updated, .updated])
        let object = try #require(catalog.manifest(bundle: "A", version: 1).files["shared.bin"]?.object.preferredPath)
        #expect(server.requests.filter { $0.path == object }.count == 1)
        let objectBytes = report.bundles.reduce(0) { $0 + $1.objectBytes }
        #expect(last.withLock { $0.map { [$0.overallCompletedBytes, $0.overallTotalBytes] } } == [objectBytes, objectBytes])
    }

    /// The last bundle cannot be fetched (its archive and objects gone): a last report
    /// says it failed, and the overall bytes end equal, what it lacked out of the total.
    @Test func aLastBundleThatFailsIsReportedWithTheOverallBytesSettled() throws {
        let fixture = try Fixture()
        let gone: HostileHTTPServer.Handler = { _ in HostileHTTPServer.response(status: "404 Not Found", body: []) }
        fixture.server.override("archives/C-1.tar", gone)
        for file in try fixture.catalog.manifest(bundle: "C", version: 1).files.values {
            fixture.server.override(file.object.preferredPath, gone)
        }
        let reports = Mutex([SyncProgress]())
        var options = fixture.options
        options.progress = { progress in reports.withLock { $0.append(progress) } }
        let report = try SyncEngine(repo: fixture.repo, options: options).sync()
        #expect(report.bundles.map(\.outcome) == [.updated, .updated, .failed])
        let objectBytes = report.bundles.reduce(0) { $0 + $1.objectBytes }
        let last = try #require(reports.withLock { $0.last })
        #expect(last.phase == .failed && last.bundle == "com.example.app.C-1", "\(last)")
        #expect(last.overallCompletedBytes == objectBytes && last.overallTotalBytes == objectBytes, "\(last)")
        #expect(last.completedBytes == last.totalBytes)
    }

    @Test func aFoundationProgressCountsTheOverallBytesToTheEnd() async throws {
        let fixture = try Fixture()
        let progress = Progress(totalUnitCount: 0)
        var options = fixture.options
        options.report(to: progress)
        let report = try await fixture.repo.sync(options: options)
        #expect(report.bundles.map(\.outcome) == [.updated, .updated, .updated])
        #expect(progress.totalUnitCount == report.bundles.reduce(0) { $0 + $1.objectBytes })
        #expect(progress.fractionCompleted == 1.0)
        #expect(progress.kind == ProgressKind.file)
        #if canImport(Darwin)
        #expect(progress.fileOperationKind == .downloading)
        #endif
    }

    @Test func cancellingTheFoundationProgressCancelsTheSync() async throws {
        let fixture = try Fixture()
        fixture.server.stall("archives/A-1.tar", after: 3000)
        let progress = Progress(totalUnitCount: 0)
        var options = fixture.options
        options.report(to: progress)
        let repo = fixture.repo
        let sync = Task { try await repo.sync(options: options) }
        var waited = 0
        while progress.totalUnitCount == 0, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        progress.cancel()
        await #expect {
            _ = try await sync.value
        } throws: { ($0 as? SyncError)?.code == .cancelled }
        #expect(try await repo.status().allSatisfy { $0.localVersion == nil })
    }
}
