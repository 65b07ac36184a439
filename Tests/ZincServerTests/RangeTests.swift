import Testing

@testable import ZincServer

@Suite("Range requests")
struct RangeTests {
    static let path = "/archives/Level-1.tar"

    @Test("bytes=a-b answers 206 with exactly those bytes")
    func closedRange() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let response = try server.get(Self.path, [("Range", "bytes=10-19")])
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes 10-19/\(whole.count)")
            #expect(response.header("Content-Length") == "10")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.header("Content-Type") == "application/x-tar")
            #expect(response.body == Array(whole[10...19]))
        }
    }

    @Test("bytes=a- runs to the end of the file")
    func openEndedRange() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let response = try server.get(Self.path, [("Range", "bytes=1000-")])
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes 1000-\(whole.count - 1)/\(whole.count)")
            #expect(response.body == Array(whole[1000...]))
        }
    }

    @Test("bytes=-n is the last n bytes, and the whole file when n is larger")
    func suffixRange() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let tail = try server.get(Self.path, [("Range", "bytes=-100")])
            #expect(tail.status == 206)
            #expect(tail.header("Content-Range") == "bytes \(whole.count - 100)-\(whole.count - 1)/\(whole.count)")
            #expect(tail.body == Array(whole.suffix(100)))

            let all = try server.get(Self.path, [("Range", "bytes=-999999")])
            #expect(all.status == 206)
            #expect(all.header("Content-Range") == "bytes 0-\(whole.count - 1)/\(whole.count)")
            #expect(all.body == whole)
        }
    }

    @Test("a last position beyond the end is clamped")
    func clampedRange() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("objects/2e/75/\(CatalogFixture.objectSHA)")
            let response = try server.get("/objects/2e/75/\(CatalogFixture.objectSHA)", [("Range", "bytes=5-99999999999999999999999")])
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes 5-\(whole.count - 1)/\(whole.count)")
            #expect(response.body == Array(whole[5...]))
        }
    }

    @Test(
        "unsatisfiable ranges answer 416 with Content-Range: bytes */size",
        arguments: [
            "bytes=99999-", "bytes=99999-100000", "bytes=-0", "bytes=99999999999999999999999-",
        ])
    func unsatisfiable(range: String) async throws {
        try await withCatalogServer { fixture, server in
            let size = try fixture.bytes("archives/Level-1.tar").count
            let response = try server.get(Self.path, [("Range", range)])
            #expect(response.status == 416)
            #expect(response.header("Content-Range") == "bytes */\(size)")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.text == "416 Range Not Satisfiable\n")
        }
    }

    @Test("no range of an empty file is satisfiable")
    func emptyFile() async throws {
        try await withCatalogServer { _, server in
            let response = try server.get("/objects/empty", [("Range", "bytes=0-")])
            #expect(response.status == 416)
            #expect(response.header("Content-Range") == "bytes */0")
            let whole = try server.get("/objects/empty")
            #expect(whole.status == 200)
            #expect(whole.header("Content-Length") == "0")
            #expect(whole.body.isEmpty)
        }
    }

    @Test(
        "multiple, invalid or foreign-unit ranges get the whole file with 200",
        arguments: [
            "bytes=0-1,5-6", "bytes=0-1, -5", "bytes=9-3", "bytes=abc", "bytes=", "items=0-1", "bytes=1-2-3", "bytes 0-1",
        ])
    func ignoredRanges(range: String) async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let response = try server.get(Self.path, [("Range", range)])
            #expect(response.status == 200)
            #expect(response.header("Content-Range") == nil)
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.body == whole)
        }
    }

    @Test("HEAD with a range answers the 206 head without a body")
    func headRange() async throws {
        try await withCatalogServer { fixture, server in
            let size = try fixture.bytes("archives/Level-1.tar").count
            let connection = try server.connect()
            try connection.send(request: "HEAD", Self.path, [("Range", "bytes=0-99")])
            let response = try connection.readResponse(method: "HEAD")
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes 0-99/\(size)")
            #expect(response.header("Content-Length") == "100")
            // The connection stays usable, so no body bytes were sent after the head.
            try connection.send(request: "GET", "/config.json")
            #expect(try connection.readResponse().text == #"{"gzip_threshold": 0.85}"#)
        }
    }

    @Test("a prefix range of an LMFO archive parses as its first tar members")
    func archivePrefix() async throws {
        try await withCatalogServer { _, server in
            let wanted = Array(CatalogFixture.archiveMembers.prefix(2))
            let end = Ustar.offset(after: wanted) - 1
            let response = try server.get(Self.path, [("Range", "bytes=0-\(end)")])
            #expect(response.status == 206)
            #expect(response.body.count == end + 1)
            let members = try Ustar.members(in: response.body)
            #expect(members.map(\.name) == wanted.map(\.name))
            #expect(members.map(\.data) == wanted.map(\.data))
        }
    }

    @Test(
        "ByteRange parses the three single-range forms",
        arguments: [
            ("bytes=0-0", 10, ByteRange.partial(0..<1)),
            ("bytes=2-5", 10, .partial(2..<6)),
            ("BYTES = 2-5 ", 10, .partial(2..<6)),
            ("bytes=9-", 10, .partial(9..<10)),
            ("bytes=10-", 10, .unsatisfiable),
            ("bytes=-3", 10, .partial(7..<10)),
            ("bytes=-30", 10, .partial(0..<10)),
            ("bytes=-1", 0, .unsatisfiable),
            ("bytes=5-4", 10, .entireFile),
            ("bytes=-", 10, .entireFile),
            ("bytes=+1-2", 10, .entireFile),
        ])
    func parsing(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange(header: header, fileSize: size) == expected)
    }

    @Test("ByteRange without a header is the entire file")
    func absent() {
        #expect(ByteRange(header: nil, fileSize: 10) == .entireFile)
    }
}
