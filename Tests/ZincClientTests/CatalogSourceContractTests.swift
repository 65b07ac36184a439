import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport
import ZincURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `CatalogSource.fetch`'s promises, kept by each HTTP transport whatever the server
/// does with `Range`, validators and encodings.
@Suite final class CatalogSourceContractTests {
    let dir: TemporaryDirectory
    let server: HostileHTTPServer
    let content = SampleContent.noise(10_000, seed: 3)

    init() throws {
        dir = try TemporaryDirectory()
        server = try HostileHTTPServer()
        let content = content
        server.override("file.bin") { HostileHTTPServer.serve(content, for: $0) }
    }

    deinit { server.stop() }

    /// Fetches `path` into a fresh file; returns the response and the bytes written.
    func fetch(
        _ transport: ClientTransport, _ path: String = "file.bin", range: Range<Int64>? = nil, etag: String? = nil,
        limit: Int64 = 1 << 20
    ) throws -> (response: FetchResponse, bytes: [UInt8]) {
        let source = try transport.sourceFactory(server.url)
        let sink = try PosixFile.open(dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
        let response = try source.fetch(path, range: range, etag: etag, limit: limit, into: sink)
        return (response, try dir.read("sink"))
    }

    /// The default factory fetches over libcurl where it is built; without it (iOS) an
    /// `http://` URL is refused with the way out named, and `file://` still works.
    @Test func theDefaultFactoryUsesLibcurlWhereItIsBuilt() throws {
        #if ZINC_LIBCURL
        #expect(try makeCatalogSource(server.url) is HTTPCatalogSource)
        #else
        let error = try #require(throws: ClientError.self) { try makeCatalogSource(server.url) }
        #expect(error == .noDefaultHTTPTransport(url: server.url))
        #expect("\(error)".contains("URLSessionTransport().sourceFactory"))
        #endif
        #expect(try makeCatalogSource("file://" + dir.at("cat")) is FileCatalogSource)
    }

    @Test(arguments: ClientTransport.allCases) func aWholeFileArrivesThenIsNotModified(_ transport: ClientTransport) throws {
        let first = try fetch(transport)
        #expect(first.bytes == content)
        #expect(first.response.status == .content && first.response.written == 10_000)
        let etag = try #require(first.response.etag)
        let again = try fetch(transport, etag: etag)
        #expect(again.response.status == .notModified && again.bytes.isEmpty)
        #expect(server.requests.last?.headers["if-none-match"] == etag)
    }

    @Test(arguments: ClientTransport.allCases) func aRangeIsExactlyItsBytes(_ transport: ClientTransport) throws {
        let fetched = try fetch(transport, range: 1000..<3000)
        #expect(fetched.bytes == Array(content[1000..<3000]))
        #expect(server.requests.last?.range == "bytes=1000-2999")
        #expect(server.requests.last?.headers["if-none-match"] == nil)
    }

    @Test(arguments: ClientTransport.allCases) func aRangeFromAServerIgnoringRangeIsExactlyItsBytes(_ transport: ClientTransport) throws {
        let content = content
        server.override("file.bin") { _ in HostileHTTPServer.response(status: "200 OK", body: content) }
        let fetched = try fetch(transport, range: 1000..<3000)
        #expect(fetched.bytes == Array(content[1000..<3000]))
        #expect(fetched.response.written == 2000 && fetched.response.received >= 3000)
    }

    @Test(arguments: ClientTransport.allCases) func aRangePastTheEndStopsWithTheFile(_ transport: ClientTransport) throws {
        let fetched = try fetch(transport, range: 9000..<12_000)
        #expect(fetched.bytes == Array(content[9000...]))
    }

    @Test(arguments: ClientTransport.allCases) func aWholeFileOverTheLimitIsTooLarge(_ transport: ClientTransport) throws {
        #expect(throws: ClientError.tooLarge(url: server.url + "file.bin", limit: 4096)) { try fetch(transport, limit: 4096) }
        // A server that announces no length is cut off once it passes the limit.
        let content = content
        server.override("file.bin") { _ in
            Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + content
        }
        #expect(throws: ClientError.tooLarge(url: server.url + "file.bin", limit: 4096)) { try fetch(transport, limit: 4096) }
        #expect(try dir.read("sink").count <= 4096)
    }

    @Test(arguments: ClientTransport.allCases) func aMissingFileIsNotFound(_ transport: ClientTransport) throws {
        #expect(throws: ClientError.notFound(url: server.url + "missing.bin")) { try fetch(transport, "missing.bin") }
    }

    @Test(arguments: ClientTransport.allCases) func anErrorStatusNamesTheURL(_ transport: ClientTransport) throws {
        server.override("file.bin") { _ in HostileHTTPServer.response(status: "503 Service Unavailable", body: Array("busy".utf8)) }
        #expect(throws: ClientError.httpStatus(url: server.url + "file.bin", status: 503)) { try fetch(transport) }
    }

    @Test(arguments: ClientTransport.allCases) func aClosedPortIsATransportErrorNamingTheURL(_ transport: ClientTransport) throws {
        let closed = try HostileHTTPServer()
        let url = closed.url
        closed.stop()
        let source = try transport.sourceFactory(url)
        let sink = try PosixFile.open(dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
        let error = try #require(throws: ClientError.self) { try source.fetch("file.bin", range: nil, etag: nil, limit: 100, into: sink) }
        guard case .transport(let failed, _, 0) = error else { Issue.record("\(error)"); return }
        #expect(failed == url + "file.bin")
    }

    /// The stored bytes of a gzipped catalog file, even from a host that labels it
    /// `Content-Encoding: gzip` (as object stores do with such metadata): libcurl leaves
    /// the body as sent; URLSession would decode it, so that transport refuses and
    /// another source may serve the file.
    @Test(arguments: ClientTransport.allCases) func aContentEncodingNeverChangesTheBytes(_ transport: ClientTransport) throws {
        let gzipped = GzipCompressor.compress(content)
        server.override("file.json.gz") { _ in
            HostileHTTPServer.response(status: "200 OK", headers: ["Content-Encoding": "gzip"], body: gzipped)
        }
        switch transport {
        #if ZINC_LIBCURL
        case .libcurl:
            #expect(try fetch(transport, "file.json.gz").bytes == gzipped)
        #endif
        case .urlSession:
            let error = try #require(throws: ClientError.self) { try fetch(transport, "file.json.gz") }
            #expect("\(error)".contains("file.json.gz") && "\(error)".contains("Content-Encoding 'gzip'"), "\(error)")
            #expect(try dir.read("sink").isEmpty)
        }
        #expect(server.requests.last?.headers["accept-encoding"].map { $0 == "identity" } ?? true)
    }

    @Test func aStalledServerTimesOut() throws {
        server.override("file.bin") { _ in
            Thread.sleep(forTimeInterval: 3)
            return []
        }
        let configuration = URLSessionTransport.defaultConfiguration
        configuration.timeoutIntervalForRequest = 1
        let source = try URLSessionTransport(configuration: configuration).sourceFactory(server.url)
        let sink = try PosixFile.open(dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
        let error = try #require(throws: ClientError.self) { try source.fetch("file.bin", range: nil, etag: nil, limit: 100, into: sink) }
        #expect("\(error)" == "download of \(server.url)file.bin failed after 0 bytes: timed out (URLError -1001)")
    }
}
