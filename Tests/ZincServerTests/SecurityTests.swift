import Foundation
import Testing

@testable import ZincServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Security: nothing outside the catalog, nothing hidden, no listings")
struct SecurityTests {
    /// Symlinks that lead out of the catalog or to hidden files, next to ones that stay inside.
    static func addLinks(_ fixture: CatalogFixture) throws {
        try fixture.symlink("escape-link", to: fixture.secretFile.path)
        try fixture.symlink("objects/relative-escape", to: "../../secret.txt")
        try fixture.symlink("objects/outside-dir", to: fixture.base.path)
        try fixture.symlink("lock-link", to: ".zinc.lock")
        try fixture.symlink("alias.json", to: "config.json")
        #expect(mkfifo(fixture.catalog.appendingPathComponent("objects/fifo").path, 0o644) == 0)
    }

    static let traversals = [
        "/../secret.txt",
        "/objects/../../secret.txt",
        "/objects/../catalog.json",
        "/./catalog.json",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/.%2e/secret.txt",
        "/objects/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/objects%2f..%2f..%2fsecret.txt",
        "/%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "/objects/..%5c..%5csecret.txt",
        "//etc/passwd",
        "/%2fetc/passwd",
        "/catalog.json%00",
        "/catalog.json%00.txt",
        "/%00/catalog.json",
        "/catalog.json%0a",
        "/escape-link",
        "/objects/relative-escape",
        "/objects/outside-dir/secret.txt",
        "/.zinc.lock",
        "/%2ezinc.lock",
        "/lock-link",
        "/.tmp/catalog.json",
        "/objects/.catalog.json.tmp",
        "/objects/fifo",
        "/",
        "/objects",
        "/objects/",
        "/manifests/",
        "/objects/2e/75/",
        "/catalog.json/",
        "/does-not-exist.json",
    ]

    @Test("every traversal, hidden, special or directory path answers 404", arguments: traversals)
    func notFound(target: String) async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        try Self.addLinks(fixture)
        try await withServer(root: fixture.catalog) { server in
            let response = try server.get(target)
            #expect(response.status == 404)
            #expect(response.text == "404 Not Found\n")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(!response.text.contains("SECRET"))
        }
    }

    @Test("under the catalog's id, every one of those paths answers 404 too", arguments: traversals)
    func notFoundUnderTheID(target: String) async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        try Self.addLinks(fixture)
        try await withServer(root: fixture.catalog, configure: { $0.catalogID = "com.example.french" }) { server in
            let response = try server.get("/com.example.french" + target)
            #expect(response.status == 404)
            #expect(!response.text.contains("SECRET"))
        }
    }

    @Test("the catalog answers under its id as at /, and only under its own")
    func servedUnderTheID() async throws {
        try await withCatalogServer(configure: { $0.catalogID = "com.example.french" }) { fixture, server in
            let index = try server.get("/catalog.json").text
            #expect(try server.get("/com.example.french/catalog.json").text == index)
            let head = Array(try fixture.bytes("archives/Level-1.tar").prefix(512))
            #expect(try server.get("/com.example.french/archives/Level-1.tar", [("Range", "bytes=0-511")]).body == head)
            #expect(try server.get("/com.example.other/catalog.json").status == 404)
            #expect(try server.get("/com.example.french").status == 404)
        }
    }

    @Test("a symlink that stays inside the catalog is served")
    func insideSymlink() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        try Self.addLinks(fixture)
        try await withServer(root: fixture.catalog) { server in
            let response = try server.get("/alias.json")
            #expect(response.status == 200)
            #expect(response.text == #"{"gzip_threshold": 0.85}"#)
        }
    }

    @Test("a query string is not part of the path")
    func queryIgnored() async throws {
        try await withCatalogServer { _, server in
            let withQuery = try server.get("/catalog.json?v=2")
            let hiddenWithQuery = try server.get("/.zinc.lock?x=/catalog.json")
            #expect(withQuery.status == 200)
            #expect(hiddenWithQuery.status == 404)
        }
    }

    @Test(
        "broken percent-encoding and targets that are not a path answer 400",
        arguments: [
            "/%zz", "/catalog.json%2", "/%", "catalog.json", "http://127.0.0.1/catalog.json", "*",
        ])
    func badTargets(target: String) async throws {
        try await withCatalogServer { _, server in
            let response = try server.get(target)
            #expect(response.status == 400)
        }
    }

    @Test(
        "malformed requests get 400 and the server keeps serving",
        arguments: [
            "HELLO\r\n\r\n",
            "GET /catalog.json HTTP/9.9\r\n\r\n",
            "GET /catalog.json HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
            "GET /catalog.json HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            "\u{0}\u{1}\u{2}\r\n\r\n",
        ])
    func malformedRequests(raw: String) async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            try connection.send(raw)
            let response = try connection.readResponse()
            #expect(response.status == 400)
            #expect(response.header("Connection") == "close")
            #expect(connection.isClosedByPeer())
            #expect(try server.get("/catalog.json").status == 200)
        }
    }

    @Test(
        "oversized request lines and headers get 431",
        arguments: [
            "GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\r\n",
            "GET /catalog.json HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n",
            "GET /catalog.json HTTP/1.1\r\n" + (0..<200).map { "X-\($0): 1\r\n" }.joined() + "\r\n",
        ])
    func oversized(raw: String) async throws {
        try await withCatalogServer { _, server in
            let connection = try server.connect()
            try connection.send(raw)
            let response = try connection.readResponse()
            #expect(response.status == 431)
            #expect(connection.isClosedByPeer())
            #expect(try server.get("/catalog.json").status == 200)
        }
    }

    @Test("RequestPath rejects what could leave the directory, before any file system access")
    func requestPathRules() throws {
        #expect(try RequestPath(target: "/objects/2e/75/abc.gz?x=1").segments == ["objects", "2e", "75", "abc.gz"])
        #expect(try RequestPath(target: "/caf%C3%A9.json").segments == ["café.json"])
        #expect(throws: RequestPath.Rejection.notServed) { try RequestPath(target: "/%ff.json") }
        #expect(throws: RequestPath.Rejection.notServed) { try RequestPath(target: "/a/%2e%2e/b") }
        #expect(throws: RequestPath.Rejection.notServed) { try RequestPath(target: "/a%2fb") }
        #expect(throws: RequestPath.Rejection.notServed) { try RequestPath(target: "/a%7f") }
        #expect(throws: RequestPath.Rejection.malformed) { try RequestPath(target: "/a%g0") }
        #expect(throws: RequestPath.Rejection.malformed) { try RequestPath(target: "a") }
    }
}

@Suite("Serving a root of catalogs")
struct CatalogRootTests {
    /// `root/french` and `root/german` are catalogs; the rest are traps.
    struct Fixture {
        let base: URL
        var root: URL { base.appendingPathComponent("root") }

        init() throws {
            base = FileManager.default.temporaryDirectory
                .appendingPathComponent("zinc-serve-root-\(UUID().uuidString)", isDirectory: true)
            let root = base.appendingPathComponent("root")
            try CatalogFixture.populate(root.appendingPathComponent("french"))
            try CatalogFixture.populate(root.appendingPathComponent("german"))
            try CatalogFixture.populate(root.appendingPathComponent(".hidden"))
            try CatalogFixture.populate(base.appendingPathComponent("outside"))
            try CatalogFixture.write("not a catalog", to: root, "plain/readme.txt")
            try CatalogFixture.write("top", to: root, "top.txt")
            try CatalogFixture.write(#"{"id":"german!"}"#, to: root, "german/only-german.json")
            let manager = FileManager.default
            try manager.createSymbolicLink(
                atPath: root.appendingPathComponent("linked-outside").path,
                withDestinationPath: base.appendingPathComponent("outside").path
            )
            try manager.createSymbolicLink(
                atPath: root.appendingPathComponent("french/cross.json").path,
                withDestinationPath: "../german/only-german.json"
            )
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    @Test("/<folder>/... maps to DIR/<folder>/... with per-catalog cache rules")
    func servesCatalogs() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await withServer(root: fixture.root, mode: .catalogRoot) { server in
            let index = try server.get("/french/catalog.json")
            #expect(index.status == 200)
            #expect(index.header("Cache-Control") == "max-age=300")
            let object = try server.get("/german/objects/2e/75/\(CatalogFixture.objectSHA)")
            #expect(object.status == 200)
            #expect(object.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(object.text == "kind.jpg bytes")
            #expect(try server.get("/german/only-german.json").status == 200)
        }
    }

    @Test(
        "listings, non-catalogs, hidden folders and escapes answer 404",
        arguments: [
            "/", "/french", "/french/", "/french/objects/", "/top.txt", "/plain/readme.txt", "/.hidden/catalog.json",
            "/linked-outside/catalog.json", "/french/cross.json", "/french/../german/catalog.json",
            "/french/%2e%2e/german/catalog.json", "/french/.zinc.lock", "/nope/catalog.json",
        ])
    func refused(target: String) async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await withServer(root: fixture.root, mode: .catalogRoot) { server in
            let response = try server.get(target)
            #expect(response.status == 404)
        }
    }
}
