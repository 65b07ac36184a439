import Foundation
import Testing
import Zinc
import ZincClient

/// What the client learns of a link from the fetches it makes, and keeps for the next sync.
@Suite struct LinkEstimateTests {
    static func response(received: Int64, firstByte: Duration?) -> FetchResponse {
        FetchResponse(status: .content, etag: nil, written: received, received: received, timeToFirstByte: firstByte)
    }

    @Test func theRoundTripIsTheShortestFirstByteAndTheRateThatOfLargeLoneBodies() throws {
        let meter = LinkMeter(recorded: nil)
        #expect(meter.measured == nil && meter.estimate == .assumed)
        // A new connection's first answer waits two round trips; a kept-alive one's, one.
        meter.record(Self.response(received: 900, firstByte: .milliseconds(200)), duration: .milliseconds(201), alone: true)
        meter.record(Self.response(received: 20_000, firstByte: .milliseconds(100)), duration: .milliseconds(110), alone: true)
        var measured = try #require(meter.measured)
        #expect(abs(measured.roundTripSeconds - 0.1) < 1e-9)
        #expect(measured.bytesPerSecond == LinkEstimate.assumed.bytesPerSecond)
        // 4 MB in 2 s after the first byte: 2 MB/s. A share of the link says nothing of it.
        meter.record(Self.response(received: 4_000_000, firstByte: .milliseconds(120)), duration: .milliseconds(2120), alone: true)
        meter.record(Self.response(received: 4_000_000, firstByte: .milliseconds(120)), duration: .seconds(20), alone: false)
        measured = try #require(meter.measured)
        #expect(abs(measured.bytesPerSecond - 2_000_000) < 1)
        // A fetch without timing (a local folder) teaches nothing.
        let local = LinkMeter(recorded: LinkEstimate(roundTripSeconds: 0.05, bytesPerSecond: 1e6))
        local.record(Self.response(received: 1 << 20, firstByte: nil), duration: .milliseconds(5), alone: true)
        #expect(local.measured == nil && local.estimate == LinkEstimate(roundTripSeconds: 0.05, bytesPerSecond: 1e6))
    }

    /// Until a large body shows the rate, a short round trip is taken for a fast link's:
    /// one moving a phone's 250 KB per round trip, up to 10 Gbit/s. Loopback's 0.1 ms is no
    /// phone's 20 Mbit/s, whose rounds would cost 250 bytes and make 20,000 requests look
    /// cheaper than one archive; its requests' handling then weighs as it does.
    @Test func aShortRoundTripIsTakenForAFastLinkUntilItsRateIsMeasured() throws {
        for (milliseconds, rate) in [(100.0, 2_500_000.0), (200, 2_500_000), (10, 25_000_000), (1, 250_000_000), (0.1, 1.25e9)] {
            let meter = LinkMeter(recorded: nil)
            meter.record(
                Self.response(received: 900, firstByte: .microseconds(milliseconds * 1000)), duration: .milliseconds(300), alone: true)
            let measured = try #require(meter.measured)
            #expect(abs(measured.bytesPerSecond - rate) < 1, "\(milliseconds) ms")
        }
        let loopback = LinkEstimate(roundTripSeconds: 0.0001, bytesPerSecond: LinkEstimate.assumedRate(roundTripSeconds: 0.0001))
        let model = loopback.costModel(concurrency: 8)
        #expect(model.requestOverhead == 125_000 && model.requestHandling == 312_500)
        // A measured rate is believed as before.
        let meter = LinkMeter(recorded: nil)
        meter.record(Self.response(received: 4_000_000, firstByte: .microseconds(100)), duration: .microseconds(100_100), alone: true)
        #expect(abs(try #require(meter.measured).bytesPerSecond - 4e7) < 1e3)
    }

    @Test func aRecordedRateServesUntilTheSyncMeasuresOne() throws {
        let meter = LinkMeter(recorded: LinkEstimate(roundTripSeconds: 0.3, bytesPerSecond: 625_000))
        meter.record(Self.response(received: 500, firstByte: .milliseconds(80)), duration: .milliseconds(81), alone: true)
        let measured = try #require(meter.measured)
        #expect(abs(measured.roundTripSeconds - 0.08) < 1e-9 && measured.bytesPerSecond == 625_000)
    }

    @Test func recordsKeepEachHostAndBelieveOnlySaneValues() throws {
        #expect(LinkRecords.host(of: "https://CDN.example.com/cat/") == "cdn.example.com:443")
        #expect(LinkRecords.host(of: "http://127.0.0.1:8080/") == "127.0.0.1:8080")
        #expect(LinkRecords.host(of: "file:///srv/cat") == nil)
        #expect(LinkRecords.host(of: "s3://Assets-Bucket/games/french") == "s3://assets-bucket")
        var records = LinkRecords()
        records.hosts["cdn.example.com:443"] = LinkEstimate(roundTripSeconds: 0.09251, bytesPerSecond: 2_275_000)
        let bytes = records.json().encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"format":"1","hosts":{"cdn.example.com:443":{"mbit_per_s":18.2,"round_trip_ms":92.5}}}"#)
        let parsed = LinkRecords.parse(bytes)
        #expect(abs(try #require(parsed.hosts["cdn.example.com:443"]).roundTripSeconds - 0.0925) < 1e-9)

        let hostile = #"""
            {"format":"1","hosts":{"a:1":{"round_trip_ms":-5,"mbit_per_s":10},"b:1":{"round_trip_ms":5,"mbit_per_s":1e300},
            "c:1":{"round_trip_ms":"5","mbit_per_s":10},"d:1":[],"e:1":{"round_trip_ms":20,"mbit_per_s":8}}}
            """#
        #expect(LinkRecords.parse(Array(hostile.utf8)).hosts.keys.sorted() == ["e:1"])
        for foreign in [#"{"format":"2","hosts":{"e:1":{"round_trip_ms":20,"mbit_per_s":8}}}"#, "[]", "not json", ""] {
            #expect(LinkRecords.parse(Array(foreign.utf8)) == LinkRecords())
        }
    }

    /// A host's way with ranges is kept with the day it was found; an undated list of an
    /// earlier build, or an entry that makes no sense, is dropped (the host asked again).
    @Test func recordsKeepEachHostsRangeVerdictWithItsDate() throws {
        var records = LinkRecords()
        records.ranges["bucket.example.com:443"] = RangeVerdict(.onePerRequest, foundAt: Date(timeIntervalSince1970: 1_795_660_800))
        records.ranges["static.example.com:80"] = RangeVerdict(.ignored, foundAt: Date(timeIntervalSince1970: 1_795_660_801))
        let bytes = records.json().encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"format":"1","hosts":{},"ranges":{"bucket.example.com:443":{"answers":"one_per_request","found_at":1795660800},"#
                + #""static.example.com:80":{"answers":"ignored","found_at":1795660801}}}"#)
        #expect(LinkRecords.parse(bytes) == records)
        let strange = #"""
            {"format":"1","hosts":{},"single_range":["old.example.com:443"],"ranges":{"a:1":{"answers":"sometimes","found_at":5},
            "b:1":{"answers":"ignored"},"c:1":{"answers":"ignored","found_at":-1},"d:1":{"answers":"ignored","found_at":7}}}
            """#
        #expect(LinkRecords.parse(Array(strange.utf8)).ranges == ["d:1": RangeVerdict(.ignored, foundAt: Date(timeIntervalSince1970: 7))])
    }
}
