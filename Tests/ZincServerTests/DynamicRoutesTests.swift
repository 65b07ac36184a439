import Foundation
import Testing

@testable import ZincServer

/// The seam for answers made by code: what a route is given, and how its text and
/// streamed bodies are sent. The static catalog is untouched beside it.
@Suite("Dynamic routes")
struct DynamicRoutesTests {
    /// Echoes the request; `/~t/stream/N` streams N chunks of 64 KiB, failing after the
    /// first when N is 0.
    struct EchoRoutes: DynamicRoutes {
        let prefix = "~t"

        func respond(to request: DynamicRequest) -> DynamicResponse {
            if request.segments.first == "stream", let count = Int(request.segments[1]) {
                return DynamicResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "application/octet-stream"),
                        ("Content-Length", String(max(count, 3) << 16)),
                    ],
                    body: .stream(Chunks(count: count)))
            }
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return DynamicResponse(
                status: 201, headers: [("Content-Type", "text/plain")],
                body: .text(request.segments.joined(separator: "|") + "?" + query))
        }
    }

    final class Chunks: DynamicBodyStream, @unchecked Sendable {
        var left: Int
        let fails: Bool

        init(count: Int) {
            left = max(count, 3)
            fails = count == 0
        }

        func next() throws -> [UInt8]? {
            if fails && left < 3 { throw CocoaError(.fileReadCorruptFile) }
            guard left > 0 else { return nil }
            left -= 1
            return [UInt8](repeating: UInt8(left), count: 1 << 16)
        }

        func close() {}
    }

    @Test func routesGetTheDecodedPathAndQuery() async throws {
        try await withCatalogServer(configure: { $0.routes = EchoRoutes() }) { _, server in
            let echo = try server.get("/~t/a%20b/c/?x=1&y=a+b%26&x=2")
            #expect(echo.status == 201)
            #expect(String(decoding: echo.body, as: UTF8.self) == "a b|c?x=1&y=a b&")
            #expect(try server.get("/~t/%ZZ").status == 400)
            #expect(try server.get("/~tx/a").status == 404)
            #expect(try server.get("/catalog.json").status == 200)
            #expect(try server.request("HEAD", "/~t/a").header("Content-Length") == "2")
        }
    }

    @Test func streamsABodyChunkByChunk() async throws {
        try await withCatalogServer(configure: { $0.routes = EchoRoutes() }) { _, server in
            let response = try server.get("/~t/stream/5")
            #expect(response.status == 200)
            #expect(response.body == (0..<5).reversed().flatMap { [UInt8](repeating: UInt8($0), count: 1 << 16) })
        }
    }

    @Test func aFailingStreamCutsTheResponseShort() async throws {
        try await withCatalogServer(configure: { $0.routes = EchoRoutes() }) { _, server in
            let connection = try server.connect()
            try connection.send(request: "GET", "/~t/stream/0", [])
            let head = try connection.readHead()
            #expect(head.header("Content-Length") == String(3 << 16))
            #expect(throws: (any Error).self) { try connection.read(exactly: 3 << 16) }
        }
    }
}
