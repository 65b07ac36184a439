import Foundation
import NIOHTTP1
import Testing

@testable import ZincServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Validators and conditional requests")
struct ConditionalTests {
    @Test("a repeated index fetch with the ETag answers 304 without a body")
    func repeatedIndexFetch() async throws {
        try await withCatalogServer { _, server in
            let first = try server.get("/catalog.json.gz")
            #expect(first.status == 200)
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))

            let connection = try server.connect()
            try connection.send(request: "GET", "/catalog.json.gz", [("If-None-Match", etag)])
            let second = try connection.readResponse()
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.header("ETag") == etag)
            #expect(second.header("Last-Modified") == first.header("Last-Modified"))
            #expect(second.header("Cache-Control") == "max-age=300")
            #expect(second.header("Content-Length") == nil)
            // Nothing followed the 304 head: the next response on the connection parses.
            try connection.send(request: "GET", "/config.json")
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test(
        "If-None-Match matches weakly, in lists, and with *",
        arguments: [
            "W/%@", "\"other\", %@", "\"a,b\" , W/%@", "*",
        ])
    func ifNoneMatchForms(template: String) async throws {
        try await withCatalogServer { _, server in
            let etag = try #require(try server.get("/catalog.json").header("ETag"))
            let value = template.replacingOccurrences(of: "%@", with: etag)
            #expect(try server.get("/catalog.json", [("If-None-Match", value)]).status == 304)
        }
    }

    @Test("a stale ETag gets the full file")
    func staleETag() async throws {
        try await withCatalogServer { _, server in
            let response = try server.get("/catalog.json", [("If-None-Match", "\"1-2-3\"")])
            #expect(response.status == 200)
            #expect(response.text.contains("com.example.french"))
        }
    }

    @Test("If-Modified-Since at or after Last-Modified answers 304, before it 200")
    func ifModifiedSince() async throws {
        try await withCatalogServer { _, server in
            let first = try server.get("/index.json")
            let lastModified = try #require(first.header("Last-Modified"))
            let seconds = try #require(HTTPDate.parse(lastModified))
            #expect(try server.get("/index.json", [("If-Modified-Since", lastModified)]).status == 304)
            let later = HTTPDate.format(secondsSinceEpoch: seconds + 60)
            #expect(try server.get("/index.json", [("If-Modified-Since", later)]).status == 304)
            let earlier = HTTPDate.format(secondsSinceEpoch: seconds - 1)
            #expect(try server.get("/index.json", [("If-Modified-Since", earlier)]).status == 200)
            #expect(try server.get("/index.json", [("If-Modified-Since", "yesterday")]).status == 200)
        }
    }

    @Test("If-None-Match takes precedence over If-Modified-Since")
    func ifNoneMatchWins() async throws {
        try await withCatalogServer { _, server in
            let lastModified = try #require(try server.get("/index.json").header("Last-Modified"))
            let response = try server.get(
                "/index.json",
                [("If-None-Match", "\"not-it\""), ("If-Modified-Since", lastModified)]
            )
            #expect(response.status == 200)
        }
    }

    @Test("an index replaced by atomic rename gets a new ETag and is sent again")
    func replacedIndex() async throws {
        try await withCatalogServer { fixture, server in
            let before = try server.get("/catalog.json")
            let etag = try #require(before.header("ETag"))
            // Same size and, on coarse clocks, the same second: only the inode tells them apart.
            let replacement = #"{"id":"com.example.FRENCH","format":"1","bundles":{}}"#
            let temporary = fixture.catalog.appendingPathComponent(".catalog.json.tmp")
            try Data(replacement.utf8).write(to: temporary)
            #expect(rename(temporary.path, fixture.catalog.appendingPathComponent("catalog.json").path) == 0)

            let after = try server.get("/catalog.json", [("If-None-Match", etag)])
            #expect(after.status == 200)
            #expect(after.header("ETag") != etag)
            #expect(after.text == replacement)
        }
    }

    @Test("If-Range with the current ETag or date honours Range, otherwise sends the whole file")
    func ifRange() async throws {
        try await withCatalogServer { fixture, server in
            let path = "/archives/Level-1.tar"
            let whole = try fixture.bytes("archives/Level-1.tar")
            let head = try server.request("HEAD", path)
            let etag = try #require(head.header("ETag"))
            let lastModified = try #require(head.header("Last-Modified"))
            let range = ("Range", "bytes=0-511")

            let sameTag = try server.get(path, [range, ("If-Range", etag)])
            #expect(sameTag.status == 206)
            #expect(sameTag.body == Array(whole[0..<512]))
            #expect(try server.get(path, [range, ("If-Range", lastModified)]).status == 206)

            for stale in ["\"1-2-3\"", "W/\(etag)", "Thu, 01 Jan 1970 00:00:00 GMT", "garbage"] {
                let response = try server.get(path, [range, ("If-Range", stale)])
                #expect(response.status == 200, "If-Range: \(stale)")
                #expect(response.body == whole)
            }
        }
    }

    @Test("ETag is derived from inode, size and nanosecond mtime")
    func etagFormat() {
        let validators = FileValidators(inode: 0xabc, size: 255, modifiedSeconds: 2, modifiedNanoseconds: 5)
        #expect(validators.etag == "\"abc-ff-77359405\"")
        #expect(validators.lastModified == 2)
    }

    @Test("entity-tag lists parse up to the first malformed element")
    func entityTagParsing() {
        let tags = ConditionalRequest.entityTags(in: #" "a", W/"b" ,"c,d", e, "f""#)
        #expect(tags.map(\.opaqueTag) == ["\"a\"", "\"b\"", "\"c,d\""])
        #expect(tags.map(\.isWeak) == [false, true, false])
    }

    @Test("HTTP dates: IMF-fixdate is written; all three RFC forms are read")
    func httpDates() {
        #expect(HTTPDate.format(secondsSinceEpoch: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT") == 951_868_799)
        #expect(HTTPDate.parse("Mon, 31 Apr 2000 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 PST") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.parse("") == nil)
    }

    @Test("conditional evaluation without validators headers proceeds")
    func noConditions() {
        let conditions = ConditionalRequest(headers: HTTPHeaders())
        let validators = FileValidators(inode: 1, size: 1, modifiedSeconds: 1, modifiedNanoseconds: 1)
        #expect(!conditions.isNotModified(validators))
        #expect(conditions.allowsRange(validators))
    }
}
