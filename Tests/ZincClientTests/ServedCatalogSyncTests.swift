import Foundation
import Testing
import Zinc
import ZincClient
import ZincServer
import ZincTestSupport

/// A repo kept in sync with a catalog served by `zinc serve`'s server (in this process),
/// through each transport: first checkout, a re-sync answered 304, an update fetched by
/// ranges of the archive.
@Suite struct ServedCatalogSyncTests {
    @Test(arguments: ClientTransport.allCases) func aRepoFollowsTheServedCatalog(_ transport: ClientTransport) async throws {
        let fixture = try ClientFixture(transport: transport)
        let server = CatalogHTTPServer(configuration: ServerConfiguration(root: URL(fileURLWithPath: fixture.dir.at("cat")), port: 0))
        let port = try await server.start()
        let url = "http://127.0.0.1:\(port)/"
        let options = fixture.options(.lmfo)
        // The server runs on its own event loop threads, so a sync blocking this one is fine.
        let outcome = Result { () throws -> [SyncReport] in
            try fixture.repo.track(url: url, bundle: "B", options: options)
            let first = try SyncEngine(repo: fixture.repo, options: options).sync()
            let again = try SyncEngine(repo: fixture.repo, options: options).sync()
            try fixture.publishVersion2()
            return [first, again, try SyncEngine(repo: fixture.repo, options: options).sync()]
        }
        try await server.shutdown()
        let reports = try outcome.get()
        #expect(reports.allSatisfy { !$0.failed }, "\(reports.map(fixture.failure))")
        #expect(reports[1].catalogs.first?.notModified == true && reports[1].bundles.first?.outcome == .upToDate)
        let update = try #require(reports[2].bundles.first)
        #expect(update.version == 2 && update.strategy == .lmfo && update.fromArchive == update.missingObjects)
        #expect(try fixture.bundleMatchesSource(2))
        // The link measured is reported and kept for the next sync, by host.
        #expect(reports.allSatisfy { $0.catalogs.first?.link != nil })
        let links = LinkRecords.parse(try fixture.dir.read("repo/links.json"))
        #expect(links.hosts.keys.sorted() == ["127.0.0.1:\(port)"])
    }

    /// Several ranges of one archive in one request to `zinc serve`, which answers with
    /// `multipart/byteranges`, and from a `file://` catalog: the same bytes either way.
    @Test(arguments: ClientTransport.allCases) func severalRangesOfAServedFileArriveInOneRequest(_ transport: ClientTransport) async throws
    {
        let fixture = try ClientFixture(transport: transport)
        let server = CatalogHTTPServer(configuration: ServerConfiguration(root: URL(fileURLWithPath: fixture.dir.at("cat")), port: 0))
        let port = try await server.start()
        let archive = "archives/B-1.tar"
        let whole = try fixture.dir.read("cat/" + archive)
        let ranges: [Range<Int64>] = [0..<512, 1024..<1500, Int64(whole.count) - 1024..<Int64(whole.count)]
        let expected = ranges.flatMap { whole[Int($0.lowerBound)..<Int($0.upperBound)] }
        let outcome = Result { () throws -> [(FetchResponse, [UInt8])] in
            try [transport.sourceFactory("http://127.0.0.1:\(port)/"), makeCatalogSource("file://" + fixture.dir.at("cat"))].map {
                let sink = try PosixFile.open(fixture.dir.at("sink"), flags: O_WRONLY | O_CREAT | O_TRUNC)
                let response = try $0.fetch(FetchRequest(archive, ranges: ranges), into: sink)
                return (response, try fixture.dir.read("sink"))
            }
        }
        try await server.shutdown()
        for (response, bytes) in try outcome.get() {
            #expect(response.rangeAnswer == .multipart && response.written == Int64(expected.count))
            #expect(bytes == expected)
        }
    }
}
