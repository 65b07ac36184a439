import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A chunked update from each kind of host real catalogs sit on, whatever it does with
/// several ranges in one request (`HostileHTTPServer.RangeHost`): the exact tree, in a
/// bounded count of requests, within a minute, moving at most a quarter more than from a
/// host that answers them in one multipart answer (or whole objects, from a host that
/// ignores `Range`).
@Suite struct HostRangesTests {
    static let catalogID = "com.example.hosts"
    static let large = SampleContent.noise(12 << 20, seed: 53)

    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Version 1 (a 12 MiB file and two small ones) on `master`.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: Self.catalogID, in: FileStorage(root: dir.at("cat")))
        try dir.write("src/pack.bin", Self.large)
        try dir.write("src/readme.txt", "version 1")
        try dir.write("src/config.json", #"{"level": 1}"#)
        try publish(1)
    }

    func publish(_ version: Int) throws {
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(version)).run()
    }

    /// Version `version`: a few scattered bytes of the large file changed, and the small files.
    func publishScatteredEdits(_ version: Int) throws {
        var pack = try dir.read("src/pack.bin")
        for offset in stride(from: 1_000_000 + version * 1000, to: pack.count, by: 2_500_000) { pack[offset] ^= 0xFF }
        try dir.write("src/pack.bin", pack)
        try dir.write("src/readme.txt", "version \(version)")
        try dir.write("src/config.json", #"{"level": \#(version)}"#)
        try publish(version)
    }

    /// A repo syncing from its own server, which plays `host` over the catalog folder.
    struct Client {
        let name: String
        let server: HostileHTTPServer
        let repo: Repo
        let options: SyncOptions

        init(_ name: String, host: HostileHTTPServer.RangeHost, transport: ClientTransport, in dir: TemporaryDirectory) throws {
            self.name = name
            server = try HostileHTTPServer(serving: dir.at("cat"), keepAlive: host.keepsConnections, rangeHost: host)
            repo = try Repo.initialize(at: dir.at(name))
            // The small files as objects, whatever the link measured: the strategy is not
            // what this suite is about, and on a loaded machine a loopback link can measure
            // a round trip worth more than the version's 12 MiB archive, which the cost
            // model then rightly prefers to two small objects: the large file came whole
            // beside its chunks (12.9 MB moved), for one client and not the other.
            options = SyncOptions(strategy: .objects, sourceFactory: transport.sourceFactory)
            _ = try repo.track(url: server.url, bundle: "B", options: options)
        }

        /// One sync: what it did, the requests the server received and how long it took.
        func sync() throws -> (report: SyncReport, bundle: SyncReport.BundleSync, asked: [HostileHTTPServer.Request], time: Duration) {
            let before = server.requests.count
            let start = ContinuousClock.now
            let report = try SyncEngine(repo: repo, options: options).sync()
            let time = ContinuousClock.now - start
            let bundle = try #require(report.bundles.first)
            #expect(bundle.error == nil, "\(name): \(bundle.error ?? "")")
            #expect(time < .seconds(60), "\(name): \(time)")
            return (report, bundle, Array(server.requests[before...]), time)
        }

        /// Bytes of the sync, index and bundle.
        static func bytes(_ report: SyncReport) -> Int64 {
            report.catalogs.reduce(0) { $0 + $1.bytes } + report.bundles.reduce(0) { $0 + $1.bytes }
        }

        var verdict: String? {
            guard let records = try? LinkRecords.parse(Array(Data(contentsOf: URL(fileURLWithPath: repo.root + "/links.json")))),
                let host = LinkRecords.host(of: server.url)
            else { return nil }
            return records.ranges[host]?.support.rawValue
        }
    }

    /// Whether `name`'s checkout of `version` holds exactly the source's files.
    func treeMatchesSource(_ name: String, version: Int) throws -> Bool {
        let folder = "\(name)/bundles/\(Self.catalogID).B-\(version)"
        return try dir.files(under: folder) == dir.files(under: "src")
            && dir.files(under: "src").allSatisfy { try dir.read("src/" + $0) == dir.read(folder + "/" + $0) }
    }

    @Test(arguments: ClientTransport.allCases, HostileHTTPServer.RangeHost.allCases)
    func anUpdateFromEachHost(_ transport: ClientTransport, _ host: HostileHTTPServer.RangeHost) throws {
        let reference = try Client("reference", host: .multipart, transport: transport, in: dir)
        let client = try Client("repo", host: host, transport: transport, in: dir)
        _ = try reference.sync()
        _ = try client.sync()
        try publishScatteredEdits(2)

        let expected = try reference.sync()
        #expect(expected.bundle.chunkedObjects == 1 && expected.asked.contains { ($0.range ?? "").contains(",") })
        let update = try client.sync()
        #expect(update.bundle.version == 2)
        #expect(try treeMatchesSource("repo", version: 2))
        let bytes = Client.bytes(update.report)
        let requests = update.asked.count
        let largeObject = try #require(try catalog.manifest(bundle: "B", version: 2).files["pack.bin"]).object
        if host == .ignoresRange {
            // Whole objects, the first request for a range cut at its head.
            #expect(update.bundle.chunkedObjects == 0 && update.bundle.chunkFallBacks.count == 1)
            #expect(Double(bytes) <= 1.25 * Double(Client.bytes(expected.report) + largeObject.preferredSize), "\(bytes)")
            #expect(
                update.report.catalogs.first?.sourceNotes == ["\(client.server.url) ignores Range: large files are fetched whole from it"])
            #expect(client.verdict == "ignored")
            #expect(requests <= expected.asked.count + 2, "\(update.asked.map(\.path))")
        } else {
            #expect(update.bundle.chunkedObjects == 1 && update.bundle.chunkFallBacks.isEmpty, "\(update.bundle.chunkFallBacks)")
            #expect(
                Double(bytes) <= 1.25 * Double(Client.bytes(expected.report)),
                "\(bytes) for \(Client.bytes(expected.report)): \(update.asked.map { ($0.range ?? "") + " " + $0.path })")
            #expect(update.report.catalogs.first?.sourceNotes == [])
            let answersSeveral = host == .multipart || host == .closesEveryConnection
            #expect(client.verdict == (answersSeveral ? nil : "one_per_request"))
            // One request more than the multipart host's per range, and the one refused.
            let ranges = try #require(expected.asked.first { ($0.range ?? "").contains(",") }?.range).split(separator: ",").count
            #expect(requests <= expected.asked.count + ranges + 1, "\(update.asked.map { $0.range ?? $0.path })")
        }
    }

    /// The verdict holds for a day: within it the host is asked one range per request at
    /// once (or, ignoring `Range`, not asked for ranges); after it, asked for several again.
    @Test(arguments: [HostileHTTPServer.RangeHost.unsatisfiableToSeveral, .ignoresRange])
    func aHostsVerdictIsRememberedForADay(_ host: HostileHTTPServer.RangeHost) throws {
        let client = try Client("repo", host: host, transport: .standard, in: dir)
        _ = try client.sync()
        try publishScatteredEdits(2)
        _ = try client.sync()
        let verdict = try #require(client.verdict)

        try publishScatteredEdits(3)
        let remembered = try client.sync()
        #expect(try treeMatchesSource("repo", version: 3))
        #expect(remembered.asked.allSatisfy { !($0.range ?? "").contains(",") }, "\(remembered.asked.map { $0.range ?? "" })")
        if host == .ignoresRange {
            #expect(remembered.asked.allSatisfy { $0.range == nil }, "no request for a range of a host known to ignore them")
            #expect(remembered.report.catalogs.first?.sourceNotes.count == 1)
        }

        // Found two days ago: asked for several ranges again, and the verdict found anew.
        let links = client.repo.root + "/links.json"
        let old = Int(Date().timeIntervalSince1970) - 2 * 86_400
        let text = try String(contentsOfFile: links, encoding: .utf8)
        let aged = text.replacingOccurrences(of: #""found_at":\d+"#, with: "\"found_at\":\(old)", options: .regularExpression)
        try aged.write(toFile: links, atomically: true, encoding: .utf8)
        try publishScatteredEdits(4)
        let renewed = try client.sync()
        #expect(try treeMatchesSource("repo", version: 4))
        // A host ignoring ranges is found out again by the first range asked of it, which
        // may be one range of the manifest's chunks; the other is asked for several.
        #expect(renewed.asked.contains { host == .ignoresRange ? $0.range != nil : ($0.range ?? "").contains(",") })
        #expect(client.verdict == verdict)
        #expect(!(try String(contentsOfFile: links, encoding: .utf8)).contains("\(old)"))
    }

    /// A host whose every answer brings one byte of each range asked, in a multipart
    /// answer or one range per request: the requests end after a bounded count, the
    /// error naming the host and its answer, and the file comes whole.
    @Test(arguments: [true, false]) func aHostTricklingItsRangesIsGivenUpOnAfterBoundedAnswers(multipart: Bool) throws {
        let client = try Client("repo", host: .multipart, transport: .standard, in: dir)
        _ = try client.sync()
        try publishScatteredEdits(2)
        let object = try #require(try catalog.manifest(bundle: "B", version: 2).files["pack.bin"]).object
        let body = try dir.read("cat/" + object.preferredPath)
        client.server.override(object.preferredPath) { request in
            guard let range = request.range else { return HostileHTTPServer.serve(body, for: request) }
            let starts = range.dropFirst(6).split(separator: ",").compactMap { Int($0.prefix { $0.isNumber }) }
            guard multipart, starts.count > 1 else {
                return HostileHTTPServer.response(
                    status: "206 Partial Content", headers: ["Content-Range": "bytes \(starts[0])-\(starts[0])/\(body.count)"],
                    body: [body[starts[0]]])
            }
            let parts = starts.map { start in
                (head: "--zzz\r\nContent-Range: bytes \(start)-\(start)/\(body.count)\r\n\r\n", bytes: body[start...start])
            }
            return HostileHTTPServer.response(
                status: "206 Partial Content", headers: ["Content-Type": "multipart/byteranges; boundary=zzz"],
                body: HostileHTTPServer.multipartBody(parts))
        }
        let update = try client.sync()
        #expect(try treeMatchesSource("repo", version: 2))
        let fallBack = try #require(update.bundle.chunkFallBacks.first)
        #expect(fallBack.contains(client.server.url + object.preferredPath), "\(fallBack)")
        #expect(fallBack.contains(multipart ? "answers brought" : "with 1 of its bytes"), "\(fallBack)")
        #expect(update.asked.count < 25, "\(update.asked.map { $0.range ?? $0.path })")
    }
}
