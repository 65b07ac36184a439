import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A catalog tracked from two sources whose first misbehaves on the update: the second
/// serves, the update completes with the right files, and the report names the first
/// and what it did. Version 1 is checked out and version 2 published, as in the
/// hostile-server tests, through each transport.
@Suite struct MirrorFailoverTests {
    /// The fixture's server is the primary; a second server of the same folder, the mirror.
    static func primaryAndMirror(_ transport: ClientTransport) throws -> (ClientFixture, HostileHTTPServer) {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let mirror = try HostileHTTPServer(serving: fixture.dir.at("cat"))
        try fixture.repo.track(url: mirror.url, bundle: "B", options: fixture.options())
        return (fixture, mirror)
    }

    static func newObjects(_ fixture: ClientFixture) throws -> [StoredObject] {
        let old = try Set(fixture.manifest(1).objects().keys)
        return try fixture.manifest(2).objects().values.filter { !old.contains($0.sha) }.sorted { $0.sha < $1.sha }
    }

    /// Syncs; returns the catalog's source failures after checking that version 2 is in place.
    static func syncThroughTheMirror(
        _ fixture: ClientFixture, _ strategy: FetchStrategy, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let report = try fixture.sync(strategy)
        #expect(!report.failed, "\(fixture.failure(report))", sourceLocation: sourceLocation)
        #expect(try fixture.bundleMatchesSource(2), sourceLocation: sourceLocation)
        return report.catalogs.first?.sourceFailures ?? []
    }

    @Test(arguments: ClientTransport.allCases) func aPrimaryAnswering5xxIsTriedLast(_ transport: ClientTransport) throws {
        let (fixture, mirror) = try Self.primaryAndMirror(transport)
        defer { mirror.stop() }
        for object in try Self.newObjects(fixture) {
            fixture.server.override(object.preferredPath) { _ in
                HostileHTTPServer.response(status: "503 Service Unavailable", body: Array("busy".utf8))
            }
        }
        let failures = try Self.syncThroughTheMirror(fixture, .objects)
        #expect(failures.count == 1 && failures[0].hasPrefix(fixture.server.url), "\(failures)")
        #expect(failures.first?.contains("HTTP 503") == true && failures.first?.contains("tried last") == true)
    }

    /// A primary that sends nothing for 20 s is left after its patience (a second or a
    /// few round trips), not after the transport's minute.
    @Test(arguments: ClientTransport.allCases) func aStalledPrimaryIsLeftAfterItsPatience(_ transport: ClientTransport) throws {
        let (fixture, mirror) = try Self.primaryAndMirror(transport)
        defer { mirror.stop() }
        fixture.server.override("archives/B-2.tar") { _ in
            Thread.sleep(forTimeInterval: 20)
            return nil
        }
        let start = ContinuousClock.now
        let failures = try Self.syncThroughTheMirror(fixture, .lmfo)
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(failures.count == 1 && failures[0].hasPrefix(fixture.server.url), "\(failures)")
    }

    @Test(arguments: ClientTransport.allCases) func anObjectWithWrongBytesIsFetchedAgainFromTheMirror(_ transport: ClientTransport) throws {
        let (fixture, mirror) = try Self.primaryAndMirror(transport)
        defer { mirror.stop() }
        let object = try #require(Self.newObjects(fixture).first)
        let size = Int(object.preferredSize)
        fixture.server.override(object.preferredPath) { HostileHTTPServer.serve(SampleContent.noise(size, seed: 9), for: $0) }
        let failures = try Self.syncThroughTheMirror(fixture, .objects)
        #expect(failures.count == 1 && failures[0].hasPrefix(fixture.server.url), "\(failures)")
        #expect(failures.first?.contains("fetched again from another source") == true)
        #expect(mirror.requests.contains { $0.path == object.preferredPath })
    }

    /// Every object wrong, fetched side by side: the first fetch to find out drops the
    /// primary, and the others, finding it dropped, go to the mirror too.
    @Test(arguments: ClientTransport.allCases) func objectsWithWrongBytesFetchedSideBySideAllComeFromTheMirror(_ transport: ClientTransport)
        throws
    {
        let (fixture, mirror) = try Self.primaryAndMirror(transport)
        defer { mirror.stop() }
        let objects = try Self.newObjects(fixture)
        for object in objects {
            let size = Int(object.preferredSize)
            fixture.server.override(object.preferredPath) { HostileHTTPServer.serve(SampleContent.noise(size, seed: 9), for: $0) }
        }
        let failures = try Self.syncThroughTheMirror(fixture, .objects)
        #expect(failures.count == 1 && failures[0].hasPrefix(fixture.server.url), "\(failures)")
        #expect(Set(mirror.requests.map(\.path)).isSuperset(of: objects.map(\.preferredPath)))
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveWithWrongBytesIsFetchedAgainFromTheMirror(_ transport: ClientTransport) throws
    {
        let (fixture, mirror) = try Self.primaryAndMirror(transport)
        defer { mirror.stop() }
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        let firstSize = try #require(TarListing.members(archive)?.first?.data.count)
        // The first member's last data byte flipped (its SHA-1 no longer matches), then
        // its header's first byte (its checksum no longer matches).
        try FileManager.default.copyItem(atPath: fixture.dir.at("repo"), toPath: fixture.dir.at("repo-v1"))
        for (offset, problem) in [(512 + firstSize - 1, "SHA-1"), (0, "bad checksum")] {
            try FileManager.default.removeItem(atPath: fixture.dir.at("repo"))
            try FileManager.default.copyItem(atPath: fixture.dir.at("repo-v1"), toPath: fixture.dir.at("repo"))
            var damaged = archive
            damaged[offset] ^= 0xFF
            fixture.server.override("archives/B-2.tar") { [damaged] in HostileHTTPServer.serve(damaged, for: $0) }
            let failures = try Self.syncThroughTheMirror(fixture, .lmfo)
            #expect(failures.count == 1 && failures[0].hasPrefix(fixture.server.url), "\(failures)")
            #expect(failures.first?.contains(problem) == true, "\(failures)")
        }
        #expect(mirror.requests.filter { $0.path == "archives/B-2.tar" }.count == 2)
    }

    /// With one source there is nobody to ask again: bad bytes are reported, as ever.
    @Test func aSingleSourceSendingWrongBytesFailsTheBundle() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let object = try #require(Self.newObjects(fixture).first)
        let size = Int(object.preferredSize)
        fixture.server.override(object.preferredPath) { HostileHTTPServer.serve(SampleContent.noise(size, seed: 9), for: $0) }
        let report = try fixture.sync(.objects)
        #expect(report.failed && fixture.failure(report).contains("SHA-1"))
        #expect(report.catalogs.first?.sourceFailures == [])
    }
}
