import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// The API an app calls: async operations, progress as a stream, cancellation through
/// the task, and errors an app can switch on.
@Suite struct AsyncAPITests {
    @Test func aSyncStreamsEachBundlesPhases() async throws {
        let fixture = try ClientFixture()
        _ = try await fixture.repo.track(url: fixture.server.url, bundle: "B", options: fixture.options())
        let (stream, continuation) = AsyncStream.makeStream(of: SyncProgress.self)
        let collected = Task {
            var updates = [SyncProgress]()
            for await update in stream { updates.append(update) }
            return updates
        }
        let report = try await fixture.repo.sync(options: fixture.options(), progress: continuation)
        #expect(report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        let updates = await collected.value
        #expect(updates.first?.phase == .planning && updates.last?.phase == .finished)
        let downloads = updates.filter { $0.phase == .downloading }
        #expect(downloads.last.map { $0.completedObjects == $0.totalObjects && $0.totalObjects > 0 } == true)
        #expect(try fixture.bundleMatchesSource(1))
        #expect(try await fixture.repo.status().first?.localVersion == 1)
    }

    /// The archive download stalls mid-body; cancelling the task ends the call at once,
    /// leaves version 1 in use, and the next sync resumes from the bytes kept.
    @Test(arguments: ClientTransport.allCases) func cancellingStopsAStalledDownloadAndTheNextSyncResumes(_ transport: ClientTransport)
        async throws
    {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let archive = "archives/B-2.tar"
        fixture.server.stall(archive, after: 3000)
        let repo = fixture.repo
        let options = fixture.options(.lmfo)
        let task = Task { try await repo.sync(options: options) }
        let part = fixture.dir.at("repo/tmp/\(ClientFixture.catalogID).B-2.tar.part")
        var waited = 0
        while (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int ?? 0) ?? 0 == 0, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let kept = try #require(FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
        #expect(kept > 0)
        let cancelled = ContinuousClock.now
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("the sync was not cancelled")
        } catch let error as SyncError {
            #expect(error.code == .cancelled, "\(error)")
        }
        // Well under the transport's minute of patience: typically a few milliseconds, a
        // second or more on a machine busy with the rest of the suite.
        #expect(ContinuousClock.now - cancelled < .seconds(10))
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)
        #expect(try fixture.dir.files(under: fixture.bundleFolder(1)).count == fixture.manifest(1).files.count)

        fixture.server.stall(archive, after: nil)
        let report = try await fixture.repo.sync(options: options)
        #expect(report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        let resumed = try #require(fixture.server.requests.last { $0.path == archive }?.range)
        #expect(!resumed.hasPrefix("bytes=0-"), "\(resumed)")
        #expect(try fixture.bundleMatchesSource(2))
    }

    /// An archive's members are verified into objects/ as their bytes arrive: with the
    /// download stalled just past the first wanted member, that object is already there.
    @Test func membersAreKeptAsTheirBytesArrive() async throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let archive = "archives/B-2.tar"
        let tar = TarReader(try PosixFile.open(fixture.dir.at("cat/" + archive)), path: archive)
        let first = try #require(try tar.next())
        let sha = first.name.hasSuffix(".gz") ? String(first.name.dropLast(3)) : first.name
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.at("repo/objects/" + sha)))
        // The answer's HTTP head (well under 300 bytes) comes before the member's header,
        // bytes and padding; what is left of the 300 stays short of the next 512-byte header.
        fixture.server.stall(archive, after: 300 + Int(first.offset + 512 + (first.size + 511) / 512 * 512))
        let repo = fixture.repo
        let options = fixture.options(.lmfo)
        let task = Task { try await repo.sync(options: options) }
        var waited = 0
        while !FileManager.default.fileExists(atPath: fixture.dir.at("repo/objects/" + sha)), waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(FileManager.default.fileExists(atPath: fixture.dir.at("repo/objects/" + sha)), "kept while the rest is awaited")
        task.cancel()
        _ = await task.result
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)
    }

    @Test func aTaskCancelledBeforeItStartsFetchesNothing() async throws {
        let fixture = try ClientFixture()
        try fixture.track()
        let repo = fixture.repo
        let options = fixture.options()
        let requests = fixture.server.requests.count
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await repo.sync(options: options)
        }
        await #expect(throws: SyncError.self) { try await task.value }
        #expect(fixture.server.requests.count == requests)
        #expect(try fixture.repo.loadState().bundles.first?.version == nil)
    }

    @Test func failuresCarryCodesAnAppCanSwitchOn() async throws {
        let fixture = try ClientFixture()
        let key = try SigningKey.generate()
        _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: key)).run()
        let stranger = try SigningKey.generate()
        let options = fixture.options()
        await #expect {
            _ = try await fixture.repo.track(
                url: fixture.server.url, bundle: "B", trustedKeys: [stranger.publicKey], options: options)
        } throws: { error in
            (error as? SyncError)?.code == .untrusted
        }
        _ = try await fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        // The index signed again by a key the repo does not trust.
        _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: stranger)).run()
        let untrusted = try await fixture.repo.sync(options: fixture.options())
        #expect(untrusted.catalogs.first?.failure?.code == .untrusted)
        #expect(untrusted.bundles.first?.failure?.code == .untrusted)

        // A distribution removed from the catalog.
        let signed = try Catalog.open(FileStorage(root: fixture.dir.at("cat")), signer: CatalogSigner(key: key))
        _ = try DistroDeletion(signed, bundle: "B", distro: "master").run()
        let gone = try await fixture.repo.sync(options: fixture.options())
        #expect(gone.bundles.first?.failure?.code == .notFound, "\(fixture.failure(gone))")

        // The server down.
        fixture.server.stop()
        let down = try await fixture.repo.sync(options: fixture.options())
        #expect(down.bundles.first?.failure?.code == .network, "\(fixture.failure(down))")

        do {
            _ = try await fixture.repo.track(url: "ftp://example.com/catalog", bundle: "B")
            Issue.record("an ftp:// URL was tracked")
        } catch {
            #expect(error.code == .invalidRequest)
        }
    }
}
