import Foundation
import Testing

@testable import ZincServer

@Suite("Access log")
struct LoggingTests {
    /// `host - - [dd/Mon/yyyy:HH:MM:SS +0000] "request" status bytes seconds`
    static func parts(_ line: String) -> (prefix: String, request: String, status: Int, bytes: Int, seconds: String)? {
        let pattern = #/^(127\.0\.0\.1 - - \[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]) "(.*)" (\d{3}) (\d+) (\d+\.\d{3})$/#
        guard let match = line.wholeMatch(of: pattern) else { return nil }
        return (String(match.1), String(match.2), Int(match.3)!, Int(match.4)!, String(match.5))
    }

    @Test("one Common Log Format line per request, with the body bytes actually sent")
    func linePerRequest() async throws {
        try await withCatalogServer { fixture, server in
            let size = try fixture.bytes("catalog.json.gz").count
            _ = try server.get("/catalog.json.gz")
            _ = try server.get("/archives/Level-1.tar", [("Range", "bytes=0-99")])
            _ = try server.request("HEAD", "/catalog.json")
            _ = try server.get("/missing")
            let etag = try #require(try server.get("/index.json").header("ETag"))
            _ = try server.get("/index.json", [("If-None-Match", etag)])

            let lines = server.logs.waitForLines(6)
            let parsed = lines.compactMap(Self.parts)
            #expect(parsed.count == 6, "\(lines)")
            // A line is written once its body has been sent, so a bodiless 304 can be
            // logged before the 200 answered just ahead of it: compare whole records.
            let indexSize = try fixture.bytes("index.json").count
            let records = parsed.map { "\($0.request) \($0.status) \($0.bytes)" }.sorted()
            #expect(
                records
                    == [
                        "GET /catalog.json.gz HTTP/1.1 200 \(size)", "GET /archives/Level-1.tar HTTP/1.1 206 100",
                        "HEAD /catalog.json HTTP/1.1 200 0", "GET /missing HTTP/1.1 404 \("404 Not Found\n".utf8.count)",
                        "GET /index.json HTTP/1.1 200 \(indexSize)", "GET /index.json HTTP/1.1 304 0",
                    ].sorted())
        }
    }

    @Test("an unparseable request is logged as \"-\" with its status")
    func badRequestLogged() async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            try connection.send("NOT HTTP AT ALL\r\n\r\n")
            _ = try connection.readResponse()
            let line = try #require(server.logs.waitForLines(1).first)
            let parts = try #require(Self.parts(line))
            #expect(parts.request == "-")
            #expect(parts.status == 400)
        }
    }

    @Test("a client that disconnects mid-download is logged with the bytes it got, not the file size")
    func abortedDownload() async throws {
        try await withCatalogServer { fixture, server in
            let size = 16 << 20
            try fixture.write(Array(repeating: 0x5A, count: size), "objects/bi/g0/big")
            let connection = try server.connect()
            try connection.send(request: "GET", "/objects/bi/g0/big")
            _ = try connection.readHead()
            _ = try connection.read(exactly: 1000)
            connection.close()
            let line = try #require(server.logs.waitForLines(1, timeout: 10).first)
            let parts = try #require(Self.parts(line))
            #expect(parts.status == 200)
            #expect(parts.bytes < size)
        }
    }

    @Test("the line has nginx's layout; client bytes in the request line are escaped")
    func formatting() {
        let entry = AccessLogEntry(
            remoteAddress: "127.0.0.1",
            receivedAt: 1_795_341_600,
            requestLine: "GET /catalog.json.gz HTTP/1.1",
            status: 200,
            bodyBytes: 1234,
            durationNanoseconds: 12_345_678
        )
        #expect(entry.line == #"127.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "GET /catalog.json.gz HTTP/1.1" 200 1234 0.012"#)

        var hostile = entry
        hostile.requestLine = "GET /a\"b\\c\nd\u{7F}é HTTP/1.1"
        hostile.durationNanoseconds = 2_005_000_000
        #expect(hostile.line == #"127.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "GET /a\x22b\x5Cc\x0Ad\x7F\xC3\xA9 HTTP/1.1" 200 1234 2.005"#)

        var unparsed = entry
        unparsed.requestLine = nil
        unparsed.status = 431
        unparsed.bodyBytes = 0
        unparsed.durationNanoseconds = 0
        #expect(unparsed.line == #"127.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "-" 431 0 0.000"#)
    }

    @Test("UTC time conversion round-trips across eras, leap days and the epoch")
    func utcTime() throws {
        for seconds in [0, -1, 951_868_799, 1_795_341_600, 4_102_444_800, -2_208_988_800] {
            #expect(UTCTime(secondsSinceEpoch: seconds).secondsSinceEpoch == seconds)
        }
        let leapDay = try #require(UTCTime(year: 2000, month: 2, day: 29, hour: 23, minute: 59, second: 59))
        #expect(leapDay.secondsSinceEpoch == 951_868_799)
        #expect(leapDay.weekday == 2 && leapDay.month == 1)
        #expect(HTTPDate.format(secondsSinceEpoch: 951_868_799) == "Tue, 29 Feb 2000 23:59:59 GMT")
        #expect(UTCTime(year: 1900, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime(year: 2000, month: 4, day: 31, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59)?.secondsSinceEpoch == -1)
        #expect(AccessLogEntry.timestamp(-1) == "31/Dec/1969:23:59:59 +0000")
        // Outside the years 1000 to 9999 (four digits) a time is clamped, never refused.
        #expect(HTTPDate.format(secondsSinceEpoch: .max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSinceEpoch: .min) == "Wed, 01 Jan 1000 00:00:00 GMT")
    }
}
