import Foundation
import Synchronization
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// Syncing over HTTP from an honest server: first checkout, LMFO updates, resuming;
/// through each transport.
@Suite struct SyncEngineTests {
    @Test(arguments: ClientTransport.allCases) func firstSyncChecksOutTheDistroVersion(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture(transport: transport)
        try fixture.track()
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(report.bundles.first?.outcome == .updated)
        #expect(try fixture.bundleMatchesSource(1))
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)
        let again = try fixture.sync()
        #expect(again.bundles.first?.outcome == .upToDate)
        #expect(again.catalogs.first?.notModified == true)
    }

    /// A first sync stamps every object of the folder it builds, as its file now is: the
    /// objects merged into the stamps as they are saved, with no verdict held for each.
    @Test func aFirstSyncStampsEveryObjectOfTheFolderItBuilt() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))
        let stamps = Array(ObjectStamps.load(from: fixture.repo).entries)
        #expect(try stamps.map(\.0.hex) == fixture.manifest(1).objects().keys.sorted())
        for (digest, stamp) in stamps { #expect(ObjectStamp.of(fixture.dir.at("repo/objects/\(digest.hex)")) == stamp) }
    }

    @Test(arguments: ClientTransport.allCases) func anUpdateFetchesOnlyTheNewObjectsFromTheArchiveFront(_ transport: ClientTransport) throws
    {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let report = try fixture.sync(.lmfo)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.error == nil, "\(bundle.error ?? "")")
        let old = try Set(fixture.manifest(1).objects().keys)
        let new = try fixture.manifest(2).objects().values.filter { !old.contains($0.sha) }
        #expect(bundle.missingObjects == new.count && bundle.fromArchive == new.count && bundle.individually == 0)
        #expect(bundle.objectBytes == new.reduce(0) { $0 + TarHeader.memberLength(size: $1.preferredSize) })
        #expect(bundle.objectRequests == 1)
        #expect(try fixture.bundleMatchesSource(2))
        // Version 1's folder stays as the spare, with its objects (see TrashTests).
        let objects = Set(fixture.dir.files(under: "repo/objects"))
        #expect(try objects == Set(fixture.manifest(2).objects().keys).union(fixture.manifest(1).objects().keys))
    }

    @Test(arguments: ClientTransport.allCases) func everyStrategyGivesTheSameTree(_ transport: ClientTransport) throws {
        for strategy in FetchStrategy.allCases {
            let fixture = try ClientFixture.version1SyncedVersion2Published(strategy: strategy, transport: transport)
            let report = try fixture.sync(strategy)
            #expect(report.bundles.first?.strategy == strategy, "\(fixture.failure(report))")
            #expect(try fixture.bundleMatchesSource(2))
        }
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveInAnotherOrderStillWorks(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        // Rewrite version 2's archive with its members reversed: the new objects sit at the end.
        let members = try #require(TarListing.members(fixture.dir.read("cat/archives/B-2.tar")))
        var reversed = [UInt8]()
        for member in members.reversed() {
            reversed +=
                member.header + member.data
                + [UInt8](repeating: 0, count: Int(TarHeader.paddedLength(Int64(member.data.count))) - member.data.count)
        }
        try fixture.dir.write("cat/archives/B-2.tar", reversed + [UInt8](repeating: 0, count: 1024))
        let report = try fixture.sync(.lmfo)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.error == nil, "\(bundle.error ?? "")")
        #expect(bundle.individually > 0)
        #expect(bundle.fromArchive + bundle.individually == bundle.missingObjects)
        #expect(try fixture.bundleMatchesSource(2))
    }

    /// The whole head, then the connection drops after `body` bytes of the answer.
    static func cut(_ response: [UInt8], after body: Int) -> [UInt8] {
        let headLength = (response.firstRange(of: [13, 10, 13, 10])?.upperBound ?? 0)
        return Array(response.prefix(headLength + body))
    }

    @Test(arguments: ClientTransport.allCases) func aCutConnectionIsResumedAtOnce(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        let answered = Mutex(0)
        fixture.server.override("archives/B-2.tar") { request in
            let first = answered.withLock { count in
                count += 1
                return count == 1
            }
            let full = HostileHTTPServer.serve(archive, for: request)
            return first ? Self.cut(full, after: 3000) : full
        }
        let report = try fixture.sync(.lmfo)
        #expect(!report.failed, "\(fixture.failure(report))")
        let ranges = fixture.server.requests.filter { $0.path == "archives/B-2.tar" }.compactMap(\.range)
        #expect(ranges.count == 2 && ranges.last?.hasPrefix("bytes=3000-") == true, "\(ranges)")
        #expect(try fixture.bundleMatchesSource(2))
    }

    @Test(arguments: ClientTransport.allCases) func aCutDownloadResumesWhereItStopped(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let cut = 3000
        try fixture.cutArchive(after: cut)
        let failed = try fixture.sync(.lmfo)
        #expect(fixture.failure(failed).contains("failed after \(cut) bytes"), "\(fixture.failure(failed))")
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)
        #expect(try fixture.bundleMatchesSourceVersion1Untouched())

        fixture.server.override("archives/B-2.tar") { _ in nil }
        let resumed = try fixture.sync(.lmfo)
        #expect(!resumed.failed, "\(fixture.failure(resumed))")
        let ranges = fixture.server.requests.filter { $0.path == "archives/B-2.tar" }.compactMap(\.range)
        #expect(ranges.last?.hasPrefix("bytes=\(cut)-") == true, "\(ranges)")
        #expect(try fixture.bundleMatchesSource(2))
    }

    @Test(arguments: ClientTransport.allCases) func redirectsAreFollowedWithTheirRanges(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        // A CDN moving the archive elsewhere: the ranged request follows the redirect.
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        fixture.server.override("archives/B-2.tar") { _ in
            HostileHTTPServer.response(status: "302 Found", headers: ["Location": "/moved/B-2.tar"], body: Array("see there".utf8))
        }
        fixture.server.override("moved/B-2.tar") { HostileHTTPServer.serve(archive, for: $0) }
        let report = try fixture.sync(.lmfo)
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(2))
        let moved = fixture.server.requests.filter { $0.path == "moved/B-2.tar" }
        #expect(moved.count == 1 && moved.first?.range?.hasPrefix("bytes=0-") == true, "\(moved)")
    }

    @Test(arguments: ClientTransport.allCases) func aSecondSourceServesWhenTheFirstIsDown(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture(transport: transport)
        let dead = try HostileHTTPServer()
        defer { dead.stop() }
        dead.override("catalog.json.gz") { _ in HostileHTTPServer.response(status: "503 Service Unavailable", body: []) }
        try fixture.track()
        var state = try fixture.repo.loadState()
        state.catalogs[ClientFixture.catalogID]?.urls.insert(dead.url, at: 0)  // tried first from now on
        try fixture.dir.write("repo/repo.json", stateJSON(state))
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(report.catalogs.first?.source == fixture.server.url)
    }

    /// A throttled single source (S3's 503 SlowDown): asked again after a pause, not
    /// given up on at its first busy answer.
    @Test func aBusySourceIsAskedAgainAfterAPause() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        let busyAnswers = Mutex(2)
        fixture.server.override("archives/B-2.tar") { request in
            let busy = busyAnswers.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            return busy
                ? HostileHTTPServer.response(status: "503 Slow Down", body: Array("SlowDown".utf8))
                : HostileHTTPServer.serve(archive, for: request)
        }
        let start = ContinuousClock.now
        let report = try fixture.sync(.lmfo)
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(2))
        #expect(fixture.server.requests.filter { $0.path == "archives/B-2.tar" }.count == 3)
        #expect(ContinuousClock.now - start >= .milliseconds(1500), "paused 0.5 s, then 1 s")
    }

    private func stateJSON(_ state: RepoState) -> String {
        let catalogs = state.catalogs.map { id, sources in
            "\"\(id)\": {\"sources\": [\(sources.urls.map { "\"\($0)\"" }.joined(separator: ","))]}"
        }
        let bundles = state.bundles.map { "{\"catalog\": \"\($0.catalog)\", \"bundle\": \"\($0.bundle)\", \"distro\": \"\($0.distro)\"}" }
        return "{\"format\": \"1\", \"catalogs\": {\(catalogs.joined(separator: ","))}, \"bundles\": [\(bundles.joined(separator: ","))]}"
    }
}

extension ClientFixture {
    /// Version 2's archive answered with its first `bytes` bytes, then with none: the
    /// resume at once makes no progress, and the download stops there.
    func cutArchive(after bytes: Int) throws {
        let archive = try dir.read("cat/archives/B-2.tar")
        let answered = Mutex(0)
        server.override("archives/B-2.tar") { request in
            let first = answered.withLock { count in
                count += 1
                return count == 1
            }
            return SyncEngineTests.cut(HostileHTTPServer.serve(archive, for: request), after: first ? bytes : 0)
        }
    }

    /// Version 1's folder still holds version 1's files (the source has moved on to version 2).
    func bundleMatchesSourceVersion1Untouched() throws -> Bool {
        let manifest = try manifest(1)
        return try manifest.files.allSatisfy { path, entry in
            SHA1.hash(try dir.read(bundleFolder(1) + "/" + path)) == entry.sha
        }
    }
}
