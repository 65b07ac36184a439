import Foundation
import Testing
import ZincHTTP

@testable import ZincServer

@Suite("Response headers and methods")
struct HeaderTests {
    @Test(
        "Cache-Control: short for the index files and other files, forever for manifests, objects, archives",
        arguments: [
            ("/catalog.json", CachePolicy.shortLived),
            ("/catalog.json.gz", CachePolicy.shortLived),
            ("/index.json", CachePolicy.shortLived),
            ("/index.json.gz", CachePolicy.shortLived),
            ("/config.json", CachePolicy.shortLived),
            ("/config/flavorspecs/phone.json", CachePolicy.shortLived),
            ("/manifests/Level-1.json", CachePolicy.immutable),
            ("/manifests/Level-1.json.gz", CachePolicy.immutable),
            ("/objects/2e/75/\(CatalogFixture.objectSHA)", CachePolicy.immutable),
            ("/objects/3c/d5/3cd529b8de8c2516f1205b5c051e52e78bfe21bd.gz", CachePolicy.immutable),
            ("/archives/Level-1.tar", CachePolicy.immutable),
            ("/archives/Level-1~phone.tar", CachePolicy.immutable),
        ])
    func cacheControl(target: String, expected: String) async throws {
        try await withCatalogServer { _, server in
            let response = try server.get(target)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == expected)
        }
    }

    @Test("Signatures: the index's as short-lived as the index, a manifest's and a version's as immutable as the manifest")
    func signatureCacheControl() {
        #expect(CachePolicy.cacheControl(path: "signatures/catalog.json.sig") == CachePolicy.shortLived)
        #expect(CachePolicy.cacheControl(path: "signatures/manifests/Level-1.json.0123456789abcdef.sig") == CachePolicy.immutable)
        // A version's signatures and the digest list they cover never change either.
        #expect(CachePolicy.cacheControl(path: "signatures/versions/Level-1.0123456789abcdef.sig") == CachePolicy.immutable)
        #expect(CachePolicy.cacheControl(path: "digests/Level-1.txt.gz") == CachePolicy.immutable)
        #expect(CachePolicy.cacheControl(path: "digests/Level-1.chunks.json.gz") == CachePolicy.immutable)
    }

    @Test(
        "Content-Type follows the extension and .gz is never Content-Encoding",
        arguments: [
            ("/catalog.json", "application/json"),
            ("/catalog.json.gz", "application/gzip"),
            ("/manifests/Level-1.json.gz", "application/gzip"),
            ("/archives/Level-1%7Ephone.tar", "application/x-tar"),
            ("/objects/2e/75/\(CatalogFixture.objectSHA)", "application/octet-stream"),
        ])
    func contentType(target: String, expected: String) async throws {
        try await withCatalogServer { _, server in
            let response = try server.get(target, [("Accept-Encoding", "gzip")])
            #expect(response.header("Content-Type") == expected)
            #expect(response.header("Content-Encoding") == nil)
        }
    }

    @Test("a 200 carries validators, length, Accept-Ranges and Date, and the exact bytes")
    func fullResponse() async throws {
        try await withCatalogServer { fixture, server in
            let response = try server.get("/catalog.json.gz")
            let bytes = try fixture.bytes("catalog.json.gz")
            #expect(response.status == 200)
            #expect(response.body == bytes)
            #expect(response.header("Content-Length") == String(bytes.count))
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.header("ETag") != nil)
            #expect(response.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
            #expect(response.header("Date").flatMap(HTTPDate.parse) != nil)
            #expect(response.header("Transfer-Encoding") == nil)
        }
    }

    @Test("HEAD answers GET's head without a body")
    func head() async throws {
        try await withCatalogServer { _, server in
            let get = try server.get("/archives/Level-1.tar")
            let connection = try server.connect()
            try connection.send(request: "HEAD", "/archives/Level-1.tar")
            let head = try connection.readResponse(method: "HEAD")
            #expect(head.status == 200)
            for name in ["Content-Length", "Content-Type", "ETag", "Last-Modified", "Cache-Control", "Accept-Ranges"] {
                #expect(head.header(name) == get.header(name), "\(name)")
            }
            try connection.send(request: "GET", "/config.json")
            #expect(try connection.readResponse().text == #"{"gzip_threshold": 0.85}"#)
        }
    }

    @Test("other methods answer 405 with Allow: GET, HEAD", arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"])
    func methodNotAllowed(method: String) async throws {
        try await withCatalogServer { _, server in
            let response = try server.request(method, "/catalog.json")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.text == "405 Method Not Allowed\n")
        }
    }

    /// NIO takes a CONNECT for a tunnel: its 405 comes without a body (as an answer to
    /// CONNECT must), and the connection closes after it.
    @Test func connectAnswers405() async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            defer { connection.close() }
            try connection.send("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n")
            let response = try connection.readHead()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
            #expect(connection.readUntilClosed().isEmpty)
        }
    }

    @Test("a request body is read and dropped, and the connection stays usable")
    func requestBody() async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            let body = String(repeating: "x", count: 100_000)
            try connection.send("POST /catalog.json HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(try connection.readResponse().status == 405)
            try connection.send(request: "GET", "/config.json")
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test("keep-alive connections answer pipelined requests in order")
    func pipelining() async throws {
        try await withCatalogServer { fixture, server in
            let connection = try server.connect()
            try connection.send(
                "GET /catalog.json HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /config.json HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /archives/Level-1.tar HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n"
            )
            #expect(try connection.readResponse().body == fixture.bytes("catalog.json"))
            #expect(try connection.readResponse().status == 404)
            #expect(try connection.readResponse(method: "HEAD").status == 200)
            let range = try connection.readResponse()
            #expect(range.status == 206)
            #expect(range.body == Array(try fixture.bytes("archives/Level-1.tar").prefix(10)))
        }
    }

    @Test("Connection: close and HTTP/1.0 without keep-alive close after the response")
    func connectionClose() async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            try connection.send(request: "GET", "/catalog.json", [("Connection", "close")])
            let response = try connection.readResponse()
            #expect(response.header("Connection") == "close")
            #expect(connection.isClosedByPeer())

            let old = try server.connect()
            try old.send("GET /catalog.json HTTP/1.0\r\n\r\n")
            #expect(try old.readResponse().status == 200)
            #expect(old.isClosedByPeer())

            let oldKeepAlive = try server.connect()
            try oldKeepAlive.send("GET /catalog.json HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try oldKeepAlive.readResponse().header("Connection") == "keep-alive")
            try oldKeepAlive.send("GET /config.json HTTP/1.0\r\n\r\n")
            #expect(try oldKeepAlive.readResponse().status == 200)
        }
    }

    @Test("many clients at once all get complete, correct files")
    func concurrentClients() async throws {
        try await withCatalogServer { fixture, server in
            let expected = try fixture.bytes("archives/Level-1.tar")
            let failures = LogCollector()
            DispatchQueue.concurrentPerform(iterations: 64) { i in
                do {
                    let response = try server.get(i % 2 == 0 ? "/archives/Level-1.tar" : "/catalog.json")
                    if i % 2 == 0 && response.body != expected { failures.append("client \(i): wrong body") }
                    if response.status != 200 { failures.append("client \(i): \(response.status)") }
                } catch {
                    failures.append("client \(i): \(error)")
                }
            }
            #expect(failures.lines.isEmpty)
            #expect(server.logs.waitForLines(64).count == 64)
        }
    }

    @Test("a client that stops reading a large file does not hold up others")
    func slowClient() async throws {
        try await withCatalogServer { fixture, server in
            let large = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try fixture.write(large, "objects/la/rg/large")
            let stalled = try server.connect()
            try stalled.send(request: "GET", "/objects/la/rg/large")
            _ = try stalled.readHead()
            let start = Date()
            for _ in 0..<20 {
                #expect(try server.get("/catalog.json").status == 200)
            }
            #expect(Date().timeIntervalSince(start) < 5)
            // The stalled client can still take the whole file afterwards.
            let body = try stalled.read(exactly: large.count)
            #expect(body == large)
        }
    }

    @Test("CachePolicy maps paths relative to the catalog root")
    func cachePolicyUnit() {
        #expect(CachePolicy.cacheControl(catalogPath: ["objects", "catalog.json"]) == CachePolicy.immutable)
        #expect(CachePolicy.cacheControl(catalogPath: ["manifests"]) == CachePolicy.shortLived)
        #expect(CachePolicy.cacheControl(catalogPath: ["config", "flavorspecs", "a.json"]) == CachePolicy.shortLived)
        #expect(CachePolicy.contentType(fileName: "a.JSON") == "application/octet-stream")
        #expect(CachePolicy.contentType(fileName: "b.tar.gz") == "application/gzip")
    }
}
