import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// Which source leads a sync: the primary, unless fresh records show a mirror clearly
/// faster; the primary again once its record is old; and mirrors kept measured.
@Suite struct SourcePreferenceTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let hosts: [String?] = ["origin.example.com:443", "cdn.example.com:443", "other.example.com:443"]

    static func records(_ links: [(host: String, roundTrip: Double, mbit: Double, age: TimeInterval)]) -> LinkRecords {
        var records = LinkRecords()
        for link in links {
            records.hosts[link.host] = LinkEstimate(roundTripSeconds: link.roundTrip, bytesPerSecond: link.mbit * 125_000)
            records.measuredAt[link.host] = now.addingTimeInterval(-link.age)
        }
        return records
    }

    @Test func aClearlyFasterMirrorLeadsThePrimaryNext() {
        let records = Self.records([
            ("origin.example.com:443", 0.3, 5, 600), ("cdn.example.com:443", 0.03, 50, 600), ("other.example.com:443", 0.1, 20, 60),
        ])
        #expect(SourcePreference.order(hosts: Self.hosts, records: records, now: Self.now) == [1, 0, 2])
    }

    @Test func nearTiesUnknownsAndOldRecordsLeaveThePrimaryInTheLead() {
        let order = { (records: LinkRecords) in SourcePreference.order(hosts: Self.hosts, records: records, now: Self.now) }
        // 10 % faster is noise, not a reason to leave the primary.
        #expect(order(Self.records([("origin.example.com:443", 0.1, 20, 60), ("cdn.example.com:443", 0.09, 20, 60)])) == [0, 1, 2])
        // A primary never measured, or measured over a day ago, leads to be measured again.
        #expect(order(Self.records([("cdn.example.com:443", 0.01, 100, 60)])) == [0, 1, 2])
        #expect(order(Self.records([("origin.example.com:443", 0.3, 5, 90_000), ("cdn.example.com:443", 0.01, 100, 60)])) == [0, 1, 2])
        // An old record of the mirror, or one from a clock set back, is not believed.
        #expect(order(Self.records([("origin.example.com:443", 0.3, 5, 60), ("cdn.example.com:443", 0.01, 100, 90_000)])) == [0, 1, 2])
        #expect(order(Self.records([("origin.example.com:443", 0.3, 5, 60), ("cdn.example.com:443", 0.01, 100, -3600)])) == [0, 1, 2])
        // A local folder is never measured: tracked order.
        #expect(SourcePreference.order(hosts: [nil, "cdn.example.com:443"], records: LinkRecords(), now: Self.now) == [0, 1])
    }

    @Test func sourcesWithoutAFreshRecordAreTheOnesToProbe() {
        let records = Self.records([("origin.example.com:443", 0.3, 5, 60), ("cdn.example.com:443", 0.03, 50, 90_000)])
        #expect(SourcePreference.stale(hosts: Self.hosts, records: records, now: Self.now) == [1, 2])
        #expect(SourcePreference.stale(hosts: [nil, "cdn.example.com:443"], records: records, now: Self.now) == [1])
    }

    @Test func recordsKeepWhenEachLinkWasMeasured() throws {
        let records = Self.records([("cdn.example.com:443", 0.0925, 18.2, 0)])
        let bytes = records.json().encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"format":"1","hosts":{"cdn.example.com:443":{"mbit_per_s":18.2,"measured_at":1795000000,"round_trip_ms":92.5}}}"#
        )
        #expect(LinkRecords.parse(bytes).measuredAt == ["cdn.example.com:443": Self.now])
        // A time out of bounds is dropped, the link kept (as recorded by an older zinc).
        let odd = #"{"format":"1","hosts":{"e:1":{"round_trip_ms":20,"mbit_per_s":8,"measured_at":-5}}}"#
        let parsed = LinkRecords.parse(Array(odd.utf8))
        #expect(parsed.hosts.keys.sorted() == ["e:1"] && parsed.measuredAt.isEmpty)
    }

    // Through syncs: version 1 synced from the fixture's server (the primary), version 2
    // published, and a second server of the same folder tracked as a mirror.

    static func links(_ fixture: ClientFixture) -> LinkRecords {
        LinkRecords.parse((try? fixture.dir.read("repo/links.json")) ?? [])
    }

    @Test(arguments: ClientTransport.allCases) func aMirrorIsProbedByASyncThatDownloads(_ transport: ClientTransport) throws {
        let (fixture, mirror) = try MirrorFailoverTests.primaryAndMirror(transport)
        defer { mirror.stop() }
        let mirrorHost = try #require(LinkRecords.host(of: mirror.url))
        #expect(Self.links(fixture).hosts[mirrorHost] == nil)
        let tracked = mirror.requests.count  // tracking read its index
        let report = try fixture.sync()
        #expect(try !report.failed && fixture.bundleMatchesSource(2))
        // Two one-byte ranges of the index, and nothing else.
        let probes = mirror.requests.dropFirst(tracked)
        #expect(probes.map(\.path) == ["catalog.json.gz", "catalog.json.gz"])
        #expect(probes.allSatisfy { $0.range == "bytes=0-0" })
        let links = Self.links(fixture)
        #expect(links.hosts[mirrorHost] != nil)
        #expect(try abs(#require(links.measuredAt[mirrorHost]).timeIntervalSinceNow) < 60)
        // Up to date: no probe, the mirror's record being fresh anyway. The sync may still
        // read its index from the mirror, when the links measured put the mirror first.
        let probed = mirror.requests.count
        _ = try fixture.sync()
        #expect(mirror.requests.dropFirst(probed).allSatisfy { $0.range == nil }, "\(mirror.requests.dropFirst(probed))")
    }

    /// Every response body a sync receives is charged to its catalog's index or to one
    /// bundle, once, except a probe's: it runs beside the bundle that started it and is
    /// charged to none.
    @Test(arguments: ClientTransport.allCases) func aProbeIsChargedToNoBundle(_ transport: ClientTransport) throws {
        let (fixture, mirror) = try MirrorFailoverTests.primaryAndMirror(transport)
        defer { mirror.stop() }
        let (primaryBefore, mirrorBefore) = (fixture.server.requests.count, mirror.requests.count)
        let report = try fixture.sync()
        #expect(try !report.failed && fixture.bundleMatchesSource(2))
        let asked = Array(fixture.server.requests.dropFirst(primaryBefore)) + mirror.requests.dropFirst(mirrorBefore)
        let probes = mirror.requests.dropFirst(mirrorBefore)
        #expect(probes.count == 2 && probes.allSatisfy { $0.range == "bytes=0-0" })
        let served = asked.reduce(Int64(0)) { $0 + Self.bodyLength(of: $1, servedFrom: fixture.dir.at("cat")) }
        let charged = report.catalogs.reduce(Int64(0)) { $0 + $1.bytes } + report.bundles.reduce(Int64(0)) { $0 + $1.bytes }
        #expect(charged == served - Int64(probes.count), "\(report.bundles.map(\.line))")
        let requests = report.catalogs.reduce(0) { $0 + $1.requests } + report.bundles.reduce(0) { $0 + $1.requests }
        #expect(requests == asked.count - probes.count)
    }

    /// The length of the body an honest server of `folder` answers `request` with.
    static func bodyLength(of request: HostileHTTPServer.Request, servedFrom folder: String) -> Int64 {
        guard let file = FileManager.default.contents(atPath: folder + "/" + request.path) else { return 0 }
        let response = HostileHTTPServer.serve(Array(file), for: request)
        guard let headEnd = response.indices.first(where: { response[$0...].starts(with: [13, 10, 13, 10]) }) else { return 0 }
        return Int64(response.count - headEnd - 4)
    }

    /// A probe's byte takes no share of the link: the lead's download beside a probe that
    /// stalls is still alone on the link, and measures the lead's rate.
    @Test func aStalledProbeLeavesTheLeadsRateMeasured() throws {
        let (fixture, mirror) = try MirrorFailoverTests.primaryAndMirror(.standard)
        defer { mirror.stop() }
        _ = try fixture.sync()
        // Version 3 adds one file, large enough to measure a rate by.
        try fixture.dir.write("src/big.bin", SampleContent.noise(600_000, seed: 7))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        let primaryHost = try #require(LinkRecords.host(of: fixture.server.url))
        var records = LinkRecords()
        records.hosts[primaryHost] = LinkEstimate(roundTripSeconds: 0.3, bytesPerSecond: 10_000)
        records.measuredAt[primaryHost] = Date()
        try fixture.dir.write("repo/links.json", records.json().encoded())
        mirror.stall("catalog.json.gz", after: 0)

        let report = try fixture.sync()
        #expect(!report.failed)
        #expect(mirror.requests.last?.range == "bytes=0-0", "the probe was under way")
        let measured = try #require(Self.links(fixture).hosts[primaryHost])
        #expect(measured.bytesPerSecond > 1_000_000, "the loopback's rate, not the recorded one")
    }

    /// Records a slow primary (measured `primaryAge` seconds ago) and a fast mirror
    /// (just now); returns the primary's host.
    @discardableResult
    static func recordSlowPrimaryAndFastMirror(
        _ fixture: ClientFixture, _ mirror: HostileHTTPServer, primaryAge: TimeInterval = 0
    ) throws -> String {
        var records = links(fixture)
        let primaryHost = try #require(LinkRecords.host(of: fixture.server.url))
        let mirrorHost = try #require(LinkRecords.host(of: mirror.url))
        records.hosts[primaryHost] = LinkEstimate(roundTripSeconds: 0.3, bytesPerSecond: 625_000)
        records.hosts[mirrorHost] = LinkEstimate(roundTripSeconds: 0.01, bytesPerSecond: 12_500_000)
        records.measuredAt[primaryHost] = Date().addingTimeInterval(-primaryAge)
        records.measuredAt[mirrorHost] = Date()
        try fixture.dir.write("repo/links.json", records.json().encoded())
        return primaryHost
    }

    @Test func aFasterMirrorServesTheWholeSync() throws {
        let (fixture, mirror) = try MirrorFailoverTests.primaryAndMirror(.standard)
        defer { mirror.stop() }
        try Self.recordSlowPrimaryAndFastMirror(fixture, mirror)
        let before = fixture.server.requests.count
        let report = try fixture.sync()
        #expect(try !report.failed && fixture.bundleMatchesSource(2))
        #expect(fixture.server.requests.count == before, "the primary was asked nothing")
        #expect(mirror.requests.contains { $0.path == "manifests/B-2.json.gz" })
    }

    @Test func thePrimaryLeadsAgainOnceItsRecordIsOld() throws {
        let (fixture, mirror) = try MirrorFailoverTests.primaryAndMirror(.standard)
        defer { mirror.stop() }
        let primaryHost = try Self.recordSlowPrimaryAndFastMirror(fixture, mirror, primaryAge: 2 * SourcePreference.freshFor)
        let tracked = mirror.requests.count
        let report = try fixture.sync()
        #expect(try !report.failed && fixture.bundleMatchesSource(2))
        #expect(mirror.requests.count == tracked, "the mirror's record is fresh: no probe either")
        #expect(try abs(#require(Self.links(fixture).measuredAt[primaryHost]).timeIntervalSinceNow) < 60, "measured again")
    }
}
