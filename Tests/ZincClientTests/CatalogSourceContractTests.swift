import Foundation
import Synchronization
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
    /// Where the awaited fetches run while a test waits for them.
    static let awaiting = ThreadPoolExecutor(threads: 2)

    init() throws {
        dir = try TemporaryDirectory()
        server = try HostileHTTPServer()
        let content = content
        server.override("file.bin") { HostileHTTPServer.serve(content, for: $0) }
    }

    deinit { server.stop() }

    /// Fetches `path` into a fresh file as a sync would (awaited from an
    /// `AsyncCatalogSource`); returns the response and the bytes written. The tests that
    /// call `fetch` themselves check the blocking one.
    func fetch(
        _ transport: ClientTransport, _ path: String = "file.bin", ranges: [Range<Int64>] = [], etag: String? = nil,
        limit: Int64 = 1 << 20, allowance: Int64 = 0
    ) throws -> (response: FetchResponse, bytes: [UInt8]) {
        let source = try transport.sourceFactory(server.url)
        let sink = try PosixFile.open(dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
        let request = FetchRequest(path, ranges: ranges, etag: etag, limit: limit, ignoredRangeAllowance: allowance)
        let response =
            if let source = source as? AsyncCatalogSource {
                try blockingWait(on: Self.awaiting) { try await source.fetch(request, into: sink) }
            } else {
                try source.fetch(request, into: sink)
            }
        return (response, try dir.read("sink"))
    }

    /// The default factory fetches over libcurl where it is built; without it (iOS) an
    /// `http://` URL is refused with the way out named, and `file://` still works.
    @Test func theDefaultFactoryUsesLibcurlWhereItIsBuilt() throws {
        #if ZINC_LIBCURL
        #expect(try makeCatalogSource(server.url) is HTTPCatalogSource)
        #else
        let error = try #require(throws: SyncError.self) { try makeCatalogSource(server.url) }
        #expect(error.cause as? ClientError == .noDefaultHTTPTransport(url: server.url) && error.code == .invalidRequest)
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
        let fetched = try fetch(transport, ranges: [1000..<3000], etag: "\"stale\"")
        #expect(fetched.bytes == Array(content[1000..<3000]))
        #expect(fetched.response.rangeAnswer == .singlePart)
        #expect(server.requests.last?.range == "bytes=1000-2999")
        #expect(server.requests.last?.headers["if-none-match"] == nil)
    }

    /// A server that ignores `Range` is read through only as far as the request allows
    /// unwanted bytes; otherwise its answer is refused before a byte of its body is used.
    @Test(arguments: ClientTransport.allCases) func aRangeFromAServerIgnoringRangeCostsOnlyWhatIsAllowed(_ transport: ClientTransport)
        throws
    {
        let content = content
        server.override("file.bin") { _ in HostileHTTPServer.response(status: "200 OK", body: content) }
        let fetched = try fetch(transport, ranges: [1000..<3000], allowance: 1000)
        #expect(fetched.bytes == Array(content[1000..<3000]))
        #expect(fetched.response.written == 2000 && fetched.response.received >= 3000)
        #expect(fetched.response.rangeAnswer == .wholeFile)

        let url = server.url + "file.bin"
        #expect(throws: ClientError.rangeIgnored(url: url, ranges: "bytes=1000-2999")) {
            try fetch(transport, ranges: [1000..<3000], allowance: 999)
        }
        #expect(try dir.read("sink").isEmpty)
        #expect(throws: ClientError.rangeIgnored(url: url, ranges: "bytes=10-19,9000-9999")) {
            try fetch(transport, ranges: [10..<20, 9000..<10_000], allowance: 8000)
        }
        let both = try fetch(transport, ranges: [10..<20, 9000..<10_000], allowance: 8990)
        #expect(both.bytes == Array(content[10..<20] + content[9000..<10_000]))
    }

    /// Ranges answered in full leave the connection open for the next request: a
    /// transfer cut once its bytes are in would close it, and every range would then pay
    /// a new connection's round trip.
    @Test(arguments: ClientTransport.allCases) func answeredRangesKeepTheConnection(_ transport: ClientTransport) throws {
        let server = try HostileHTTPServer(keepAlive: true)
        defer { server.stop() }
        let content = content
        server.override("file.bin") { HostileHTTPServer.serve(content, for: $0) }
        let source = try transport.sourceFactory(server.url)
        let asked: [[Range<Int64>]] = [[0..<1], [0..<1], [10..<20, 500..<1500], [9990..<10_000], []]
        for ranges in asked {
            let sink = try PosixFile.open(dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
            let response = try source.fetch(FetchRequest("file.bin", ranges: ranges, limit: 1 << 20), into: sink)
            let expected = ranges.isEmpty ? content : ranges.flatMap { content[Int($0.lowerBound)..<Int($0.upperBound)] }
            #expect(response.written == Int64(expected.count))
            #expect(try dir.read("sink") == expected)
        }
        #expect(server.requests.count == asked.count)
        #expect(server.connections == 1)
    }

    @Test(arguments: ClientTransport.allCases) func aRangePastTheEndStopsWithTheFile(_ transport: ClientTransport) throws {
        let fetched = try fetch(transport, ranges: [9000..<12_000])
        #expect(fetched.bytes == Array(content[9000...]))
    }

    @Test(arguments: ClientTransport.allCases) func severalRangesArriveBackToBackFromOneMultipartAnswer(_ transport: ClientTransport) throws
    {
        let fetched = try fetch(transport, ranges: [10..<20, 500..<1500, 9990..<10_000])
        #expect(fetched.bytes == Array(content[10..<20] + content[500..<1500] + content[9990..<10_000]))
        #expect(fetched.response.rangeAnswer == .multipart && fetched.response.written == 1020)
        #expect(server.requests.count == 1 && server.requests.last?.range == "bytes=10-19,500-1499,9990-9999")
    }

    /// A sink need not be a file: a transport of an app's own, or one wrapping another,
    /// hands sources whatever takes the bytes.
    @Test(arguments: ClientTransport.allCases) func aSinkOfTheCallersOwnGetsTheWantedBytes(_ transport: ClientTransport) throws {
        let sink = MemorySink()
        let request = FetchRequest("file.bin", ranges: [10..<20, 9990..<10_000])
        let response = try transport.sourceFactory(server.url).fetch(request, into: sink)
        #expect(sink.bytes == Array(content[10..<20] + content[9990..<10_000]) && response.written == 20)
    }

    /// A server that answers one range per request (as S3 does) writes that range alone,
    /// and says so: the caller asks again for the rest.
    @Test(arguments: ClientTransport.allCases) func aServerAnsweringOneRangeWritesOnlyThatOne(_ transport: ClientTransport) throws {
        let content = content
        server.override("file.bin") { HostileHTTPServer.serve(content, for: $0, as: .firstPartOnly) }
        let fetched = try fetch(transport, ranges: [10..<20, 500..<1500])
        #expect(fetched.bytes == Array(content[10..<20]))
        #expect(fetched.response.rangeAnswer == .singlePart && fetched.response.written == 10)
    }

    /// Parts may join ranges, come with bytes not asked for around them, or skip one:
    /// only the wanted bytes are written, in order, up to the first that never came.
    @Test(arguments: ClientTransport.allCases) func partsArePlacedByTheirContentRange(_ transport: ClientTransport) throws {
        let content = content
        @Sendable func answer(_ parts: [ClosedRange<Int>]) -> [UInt8] {
            HostileHTTPServer.response(
                status: "206 Partial Content", headers: ["Content-Type": "multipart/byteranges; boundary=\"zzz\""],
                body: HostileHTTPServer.multipartBody(
                    parts.map { ("--zzz\r\nContent-Range: bytes \($0.lowerBound)-\($0.upperBound)/10000\r\n\r\n", content[$0]) }))
        }
        server.override("file.bin") { _ in answer([0...1599, 9000...9999]) }
        let joined = try fetch(transport, ranges: [10..<20, 500..<1500, 9990..<10_000])
        #expect(joined.bytes == Array(content[10..<20] + content[500..<1500] + content[9990..<10_000]))

        server.override("file.bin") { _ in answer([10...19, 9990...9999, 500...1499]) }
        let skipped = try fetch(transport, ranges: [10..<20, 500..<1500, 9990..<10_000])
        #expect(skipped.bytes == Array(content[10..<20]) && skipped.response.written == 10)
    }

    /// A file whose bytes hold the boundary, the closing delimiter included, arrives
    /// whole: a part's length comes from its Content-Range, never from a search.
    @Test(arguments: ClientTransport.allCases) func fileBytesHoldingTheBoundaryAreNotMisread(_ transport: ClientTransport) throws {
        let tricky = Array(repeating: UInt8(ascii: "x"), count: 100) + Array("\r\n--zzz--\r\n--zzz\r\n".utf8) + content.prefix(200)
        server.override("file.bin") { HostileHTTPServer.serve(tricky, for: $0) }
        let fetched = try fetch(transport, ranges: [0..<150, 200..<250])
        #expect(fetched.bytes == Array(tricky[0..<150] + tricky[200..<250]))
    }

    @Test(
        arguments: ClientTransport.allCases,
        [
            ("--zzz\r\nContent-Type: text/plain\r\n\r\nabc\r\n--zzz--\r\n", "a part has no Content-Range"),
            ("--zzz\r\nContent-Range: bytes 9-0/100\r\n\r\nabc\r\n--zzz--\r\n", "second or invalid Content-Range"),
            ("--zzz\r\nContent-Range: bytes 10-12/10000\r\n\r\nabcjunk\r\n--zzz--\r\n", "not followed by the boundary"),
            ("--zzz--\r\n", "it closes without a part"),
        ])
    func aMalformedMultipartAnswerIsABadResponse(_ transport: ClientTransport, body: (String, String)) throws {
        server.override("file.bin") { _ in
            HostileHTTPServer.response(
                status: "206 Partial Content", headers: ["Content-Type": "multipart/byteranges; boundary=zzz"],
                body: Array(body.0.utf8))
        }
        let error = try #require(throws: ClientError.self) { try fetch(transport, ranges: [10..<13, 500..<600]) }
        guard error.code == .corruptDownload, let reason = error.reason else { Issue.record("\(error)"); return }
        #expect(reason.contains("malformed multipart/byteranges answer") && reason.contains(body.1), "\(reason)")
    }

    @Test(arguments: ClientTransport.allCases) func aWholeFileOverTheLimitIsTooLarge(_ transport: ClientTransport) throws {
        #expect(throws: ClientError.tooLarge(url: server.url + "file.bin", limit: 4096)) { try fetch(transport, limit: 4096) }
        // A server that announces no length (the body ends as the connection closes) is
        // cut off once it passes the limit.
        let content = content
        server.override("file.bin") { _ in Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + content }
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
        let error = try #require(throws: ClientError.self) { try source.fetch(FetchRequest("file.bin", limit: 100), into: sink) }
        guard error.code == .network, error.received == 0 else { Issue.record("\(error)"); return }
        #expect(error.url == url + "file.bin")
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
        let error = try #require(throws: ClientError.self) { try source.fetch(FetchRequest("file.bin", limit: 100), into: sink) }
        #expect("\(error)" == "download of \(server.url)file.bin failed after 0 bytes: timed out (URLError -1001)")
    }
}

/// What a fetch appended, in memory.
private final class MemorySink: FetchSink {
    private let written = Mutex([UInt8]())

    var bytes: [UInt8] { written.withLock { $0 } }

    func write(_ bytes: UnsafeRawBufferPointer) throws { written.withLock { $0.append(contentsOf: bytes) } }
}
