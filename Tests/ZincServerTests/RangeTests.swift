import Testing
import ZincTestSupport

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
        "invalid, foreign-unit, overlapping or oversized sets of ranges get the whole file with 200",
        arguments: [
            "bytes=9-3", "bytes=abc", "bytes=", "items=0-1", "bytes=1-2-3", "bytes 0-1", "bytes=0-1,5-x",
            "bytes=0-99,50-149", "bytes=-99999,0-0", "bytes=0-9,10-19,5-5",
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

    @Test("several ranges answer 206 multipart/byteranges, each part placed by its Content-Range")
    func multipleRanges() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let size = whole.count
            let response = try server.get(Self.path, [("Range", "bytes=2000-2099, 0-9,,-5")])
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == nil)
            #expect(response.header("Content-Length") == String(response.body.count))
            let contentType = try #require(response.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/byteranges; boundary="))
            let boundary = String(contentType.dropFirst("multipart/byteranges; boundary=".count))
            let parts = try Multipart.parts(of: response.body, boundary: boundary)
            // In the order asked, each with the file's type.
            #expect(parts.map(\.contentRange) == ["bytes 2000-2099/\(size)", "bytes 0-9/\(size)", "bytes \(size - 5)-\(size - 1)/\(size)"])
            #expect(parts.map(\.contentType) == Array(repeating: "application/x-tar", count: 3))
            #expect(parts.map(\.body) == [Array(whole[2000..<2100]), Array(whole[0..<10]), Array(whole.suffix(5))])
            // The connection stays usable: the length was exact.
            let connection = try server.connect()
            try connection.send(request: "GET", Self.path, [("Range", "bytes=0-0,2-2")])
            #expect(try connection.readResponse().status == 206)
            try connection.send(request: "GET", "/config.json")
            #expect(try connection.readResponse().text == #"{"gzip_threshold": 0.85}"#)
        }
    }

    @Test("a set with one satisfiable range answers it alone, and with none 416")
    func setsWithUnsatisfiableRanges() async throws {
        try await withCatalogServer { fixture, server in
            let whole = try fixture.bytes("archives/Level-1.tar")
            let one = try server.get(Self.path, [("Range", "bytes=99999-, 10-19")])
            #expect(one.status == 206)
            #expect(one.header("Content-Range") == "bytes 10-19/\(whole.count)")
            #expect(one.body == Array(whole[10...19]))
            let none = try server.get(Self.path, [("Range", "bytes=99999-, 100000-100001")])
            #expect(none.status == 416)
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
            let members = try TarListing.leadingMembers(response.body)
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
            ("bytes=0-1,4-5", 10, .multipart([0..<2, 4..<6])),
            ("bytes=8-, 0-0", 10, .multipart([8..<10, 0..<1])),
            ("bytes=0-1,1-2", 10, .entireFile),
            ("bytes=0-1,20-30", 10, .partial(0..<2)),
            ("bytes=,,0-1,", 10, .partial(0..<2)),
            // Found by the fuzzer: lengths that would overflow when added up.
            ("bytes=02-,-4", Int.max, .entireFile),
        ])
    func parsing(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange(header: header, fileSize: size) == expected)
    }

    @Test("ByteRange answers up to 1,024 ranges part by part, and more with the entire file")
    func manyRanges() {
        func header(_ count: Int) -> String { "bytes=" + (0..<count).map { "\($0 * 2)-\($0 * 2)" }.joined(separator: ",") }
        #expect(ByteRange(header: header(1024), fileSize: 4096) == .multipart((0..<1024).map { ($0 * 2)..<($0 * 2 + 1) }))
        #expect(ByteRange(header: header(1025), fileSize: 4096) == .entireFile)
    }

    @Test("ByteRange without a header is the entire file")
    func absent() {
        #expect(ByteRange(header: nil, fileSize: 10) == .entireFile)
    }
}

/// A strict reader of `multipart/byteranges` bodies for the tests, independent of the
/// client's: every part is `--boundary`, fields, a blank line, bytes, CRLF.
enum Multipart {
    struct Part: Equatable {
        var contentType: String?
        var contentRange: String?
        var body: [UInt8]
    }

    struct Malformed: Error {}

    static func parts(of body: [UInt8], boundary: String) throws -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        var parts = [Part]()
        var i = 0
        func expect(_ bytes: [UInt8]) throws {
            guard i + bytes.count <= body.count, Array(body[i..<(i + bytes.count)]) == bytes else { throw Malformed() }
            i += bytes.count
        }
        func line() throws -> String {
            guard let end = body[i...].firstIndex(of: 0x0A), end > i, body[end - 1] == 0x0D else { throw Malformed() }
            defer { i = end + 1 }
            return String(decoding: body[i..<(end - 1)], as: UTF8.self)
        }
        while true {
            try expect(delimiter)
            if i + 4 == body.count, Array(body[i...]) == Array("--\r\n".utf8) { return parts }
            try expect([0x0D, 0x0A])
            var part = Part(body: [])
            while case let field = try line(), !field.isEmpty {
                let (name, value) = field.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }.pair()
                if name.lowercased() == "content-type" { part.contentType = value }
                if name.lowercased() == "content-range" { part.contentRange = value }
            }
            let range = try #require(part.contentRange?.split(separator: " ").last?.split(separator: "/").first)
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            guard bounds.count == 2 else { throw Malformed() }
            part.body = Array(body[i..<(i + bounds[1] - bounds[0] + 1)])
            i += part.body.count
            try expect([0x0D, 0x0A])
            parts.append(part)
        }
    }
}

extension Array where Element == String {
    fileprivate func pair() -> (String, String) { (self.first ?? "", count > 1 ? self[1] : "") }
}
