import Foundation
import Synchronization
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// Updates of large files that fetch the chunks that changed, not the files: from any
/// server, and never a wrong file whatever the chunk list says.
@Suite struct ChunkedSyncTests {
    static let catalogID = "com.example.chunks"
    static let pack = SampleContent.noise(3 << 20, seed: 11)
    static let level = SampleContent.prose(3 << 20, seed: 12)
    static let video = SampleContent.noise(3 << 20, seed: 14)

    let dir: TemporaryDirectory
    let catalog: Catalog
    let server: HostileHTTPServer
    let repo: Repo
    /// Syncs through the build's default transport (`aRepoUpdatesByChunksThroughEachTransport` tries each).
    let options = Self.options()

    /// Options with the fixed cost model: these tests are about where chunks come from, not
    /// about the link, and a link measured on a loaded machine (a long round trip) can make
    /// one archive, which carries the large files whole, the cheaper plan.
    static func options(
        through transport: ClientTransport = .standard, progress: (@Sendable (SyncProgress) -> Void)? = nil
    ) -> SyncOptions {
        SyncOptions(
            costModel: CostModel(concurrency: SyncOptions.defaultConcurrency), sourceFactory: transport.sourceFactory, progress: progress)
    }

    /// Version 1 (a raw pack and video, a gzipped level, a small file) synced into the
    /// repo; version 2 edits the large files (a byte flipped in the pack, 4 KiB inserted
    /// in the level, 256 KiB appended to the video) and is on `master`.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: Self.catalogID, in: FileStorage(root: dir.at("cat")))
        try dir.write("src/pack.bin", Self.pack)
        try dir.write("src/level.json", Self.level)
        try dir.write("src/video.bin", Self.video)
        try dir.write("src/readme.txt", "version 1")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        server = try HostileHTTPServer(serving: dir.at("cat"))
        repo = try Repo.initialize(at: dir.at("repo"))
        _ = try repo.track(url: server.url, bundle: "B", options: options)
        let first = try SyncEngine(repo: repo, options: options).sync()
        #expect(!first.failed && first.bundles.first?.chunkedObjects == 0)

        var pack = Self.pack
        pack[2_000_000] ^= 0xFF
        try dir.write("src/pack.bin", pack)
        try dir.write("src/level.json", Array(Self.level[..<1_500_000]) + SampleContent.prose(4096, seed: 13) + Self.level[1_500_000...])
        try dir.write("src/video.bin", Self.video + SampleContent.noise(256 << 10, seed: 15))
        try dir.write("src/readme.txt", "version 2")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
    }

    func sync(through transport: ClientTransport = .standard) throws -> SyncReport.BundleSync {
        let report = try SyncEngine(repo: repo, options: Self.options(through: transport)).sync()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.error == nil, "\(bundle.error ?? "")")
        #expect(bundle.version == 2)
        #expect(try bundleMatchesSource(), "the synced files are the source's")
        return bundle
    }

    func bundleMatchesSource() throws -> Bool {
        let folder = "repo/bundles/\(Self.catalogID).B-2"
        return try dir.files(under: folder) == dir.files(under: "src")
            && dir.files(under: "src").allSatisfy { try dir.read("src/" + $0) == dir.read(folder + "/" + $0) }
    }

    func objectPath(_ file: String) throws -> String {
        try #require(try catalog.manifest(bundle: "B", version: 2).files[file]).object.preferredPath
    }

    /// A repo started from a seed of version 1 (its objects never hashed by a sync)
    /// updates by chunks too.
    @Test func aSeededRepoUpdatesByChunks() throws {
        let export = dir.at("seed")
        try SeedExport(catalog, bundle: "B", version: .number(1), to: export).run()
        let seeded = try Repo.initialize(at: dir.at("device"))
        try SyncEngine(repo: seeded).seed(from: export, sources: [server.url])
        #expect(dir.files(under: "device/chunks").isEmpty)
        let update = try #require(try SyncEngine(repo: seeded, options: options).sync().bundles.first)
        #expect(update.outcome == .updated && update.chunkedObjects == 3, "\(update.line)")
        #expect(update.chunkBytes < 1 << 20 && update.reusedBytes > 8 << 20, "\(update.line)")
        let folder = "device/bundles/\(Self.catalogID).B-2"
        #expect(try dir.files(under: "src").allSatisfy { try dir.read("src/" + $0) == dir.read(folder + "/" + $0) })
    }

    @Test(arguments: ClientTransport.allCases) func anUpdateFetchesTheChangedChunksAndReusesTheRest(_ transport: ClientTransport) throws {
        let before = server.requests.count
        let update = try sync(through: transport)
        #expect(update.chunkedObjects == 3 && update.chunkFallBacks.isEmpty)
        // A chunk or two of each file and what was appended, not 9 MiB.
        #expect(update.chunkBytes > 0 && update.chunkBytes < 1 << 20, "\(update.chunkBytes)")
        #expect(update.reusedBytes > 8 << 20)
        // The manifest's changed chunks (its description, then their ranges) and the chunk
        // list side by side, one request per changed file and the small one; and the
        // distribution's rollout file (missing).
        let requests = server.requests[before...].map(\.path)
        #expect(requests.count <= 9, "\(requests)")
        #expect(requests.contains("chunks/B-2.json.gz") && requests.contains("manifest-chunks/B-2.json.gz"))
    }

    /// Requests dear, so that the plan takes an update's twenty new small files from the
    /// front of the LMFO archive, whose range carries the changed large file whole too:
    /// the large file is taken from it, not assembled from chunks as well (which fetched
    /// its changed ranges a second time). One request, the prefix's exact bytes, and the
    /// plan is the run.
    @Test func aLargeFileTheArchiveCarriesIsTakenFromItNotAssembledToo() throws {
        _ = try sync()
        var pack = Self.pack
        pack[100] ^= 0xFF
        try dir.write("src/pack.bin", pack)
        for i in 0..<20 { try dir.write("src/small/\(i).txt", "small file \(i)") }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(3)).run()
        let before = Set(try catalog.manifest(bundle: "B", version: 2).objects().keys)
        let new = try catalog.manifest(bundle: "B", version: 3).objects().filter { !before.contains($0.key) }.map(\.value)
        #expect(new.count == 21)
        let prefix = new.reduce(0) { $0 + TarHeader.memberLength(size: $1.preferredSize) }

        var dear = options
        dear.costModel = CostModel(requestOverhead: 1 << 30)
        let engine = SyncEngine(repo: repo, options: dear)
        let plan = try engine.plan()
        let report = try engine.sync(following: plan)
        let bundle = try #require(report.bundles.first)
        #expect(!report.failed && bundle.outcome == .updated && bundle.strategy == .lmfo, "\(bundle.line)")
        #expect(bundle.chunkedObjects == 0 && bundle.chunkBytes == 0 && bundle.fromArchive == 21 && bundle.individually == 0)
        #expect(bundle.objectRequests == 1 && bundle.objectBytes == prefix, "\(bundle.objectBytes) for a prefix of \(prefix)")
        let moved: Int64 = report.catalogs.map(\.bytes).reduce(0, +) + report.bundles.map(\.bytes).reduce(0, +)
        #expect(abs(moved - plan.bytes) <= max(plan.bytes / 100, 4096), "planned \(plan.bytes), moved \(moved)")
        let folder = "repo/bundles/\(Self.catalogID).B-3"
        #expect(try dir.files(under: folder) == dir.files(under: "src"))
        #expect(try dir.files(under: "src").allSatisfy { try dir.read("src/" + $0) == dir.read(folder + "/" + $0) })
    }

    /// Progress counts the objects built from chunks and their ranges' bytes, beside
    /// the small file fetched whole.
    @Test func progressCountsTheChunksFetched() throws {
        let reports = Mutex([SyncProgress]())
        let options = Self.options { progress in
            reports.withLock { $0.append(progress) }
        }
        let update = try #require(try SyncEngine(repo: repo, options: options).sync().bundles.first)
        let last = try #require(reports.withLock { $0.last { $0.phase == .downloading } })
        #expect(reports.withLock { $0.last?.phase } == .finished)
        #expect(update.chunkedObjects == 3 && last.totalObjects == 4 && last.completedObjects == 4)
        #expect(last.completedBytes == last.totalBytes && last.totalBytes == update.chunkBytes + 9, "the chunks and 'version 2'")
    }

    @Test func aServerThatAnswersOneRangePerRequestIsAskedOneAtATime() throws {
        /// Serves every object one range per request.
        func answerOneRange(version: Int) throws {
            for entry in try catalog.manifest(bundle: "B", version: version).files.values {
                let body = try dir.read("cat/" + entry.object.preferredPath)
                server.override(entry.object.preferredPath) { HostileHTTPServer.serve(body, for: $0, as: .firstPartOnly) }
            }
        }
        /// Version `version`: two bytes of the pack flipped far apart, two ranges to fetch.
        func publishTwoEdits(_ version: Int) throws {
            var pack = try dir.read("src/pack.bin")
            pack[100_000 * version] ^= 0xFF
            pack[2_900_000 - version] ^= 0xFF
            try dir.write("src/pack.bin", pack)
            _ = try catalog.updateBundle("B", from: dir.at("src"))
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(version)).run()
            try answerOneRange(version: version)
        }
        try answerOneRange(version: 2)
        let update = try sync()
        #expect(update.chunkedObjects == 3 && update.chunkBytes < 1 << 20)

        try publishTwoEdits(3)
        let third = try #require(try SyncEngine(repo: repo, options: options).sync().bundles.first)
        #expect(third.error == nil && third.chunkedObjects == 1)
        // Remembered: the next update asks that host for one range per request, at once.
        let host = try #require(LinkRecords.host(of: server.url))
        #expect(LinkRecords.parse(try dir.read("repo/links.json")).ranges.mapValues(\.support) == [host: .onePerRequest])
        try publishTwoEdits(4)
        let before = server.requests.count
        let fourth = try #require(try SyncEngine(repo: repo, options: options).sync().bundles.first)
        #expect(fourth.error == nil && fourth.version == 4 && fourth.chunkedObjects == 1)
        #expect(server.requests[before...].allSatisfy { !($0.range ?? "").contains(",") })
    }

    @Test func aServerThatIgnoresRangeServesTheObjectsWhole() throws {
        for file in ["pack.bin", "level.json", "video.bin"] {
            let path = try objectPath(file)
            let body = try dir.read("cat/" + path)
            server.override(path) { _ in HostileHTTPServer.response(status: "200 OK", body: body) }
        }
        let update = try sync()
        #expect(update.chunkedObjects == 0 && update.chunkFallBacks.count == 3)
        #expect(update.chunkFallBacks.allSatisfy { $0.contains("ignores Range") }, "\(update.chunkFallBacks)")
    }

    /// A list that lies about a chunk costs that object whole, never a wrong file.
    @Test func aWrongChunkListCostsTheWholeObject() throws {
        var list = try #require(try catalog.readChunkList(bundle: "B", version: 2))
        for (digest, layout) in list.objects {
            let lying = layout.chunks.map { chunk in
                StoredChunk(
                    length: Int64(chunk.length), storedLength: Int64(chunk.storedLength), hash: ChunkHash(chunk.hash.value ^ 1),
                    format: layout.format)!
            }
            list.objects[digest] = ObjectChunks(format: layout.format, offset: layout.offset, chunks: lying)
        }
        let gz = GzipCompressor.compress(list.encoded())
        server.override("chunks/B-2.json.gz") { HostileHTTPServer.serve(gz, for: $0) }
        let update = try sync()
        // Every chunk hash is wrong: none is found locally, so the objects are fetched whole.
        #expect(update.chunkedObjects == 0)
    }

    @Test func aDamagedChunkListIsReportedAndCostsWholeObjects() throws {
        server.override("chunks/B-2.json.gz") { HostileHTTPServer.serve(GzipCompressor.compress(Array("{\"format\": 1".utf8)), for: $0) }
        let update = try sync()
        #expect(update.chunkedObjects == 0 && update.chunkListError?.contains("not a JSON object") == true)
    }

    /// A chunk whose bytes arrive wrong, though the list is right: the object is fetched
    /// whole and checked again.
    @Test func chunkBytesThatFailTheirHashCostTheWholeObject() throws {
        let path = try objectPath("pack.bin")
        var body = try dir.read("cat/" + path)
        let whole = body
        body[2_000_000] ^= 0x01
        let damaged = body
        server.override(path) { request in
            HostileHTTPServer.serve(request.range == nil ? whole : damaged, for: request)
        }
        let update = try sync()
        #expect(update.chunkedObjects == 2 && update.chunkFallBacks.count == 1)
        #expect(update.chunkFallBacks.first?.contains("does not have the hash its list gives") == true)
    }

    /// A signed catalog: chunk lists are not signed, and need not be; a file built from
    /// chunks is checked against the SHA-256 the version's signature covers (by its digest list).
    @Test func aSignedCatalogUpdatesByChunksToo() throws {
        let key = try SigningKey.generate()
        _ = try CatalogSigning(catalog, signer: CatalogSigner(key: key)).run()
        _ = try repo.track(url: server.url, bundle: "B", trustedKeys: [key.publicKey], options: options)
        let update = try sync()
        #expect(update.chunkedObjects == 3 && update.chunkFallBacks.isEmpty)
        #expect(server.requests.contains { $0.path.hasPrefix("signatures/versions/B-2.") })
    }

    /// A catalog written before chunk lists: no list, whole objects, nothing else changes.
    @Test func aCatalogWithoutChunkListsIsSyncedAsBefore() throws {
        try FileManager.default.removeItem(atPath: dir.at("cat/chunks/B-2.json.gz"))
        let update = try sync()
        #expect(update.chunkedObjects == 0 && update.chunkListError == nil)
    }

    /// A repo made before chunk records gets them on its first update, and uses them.
    @Test func aRepoMadeBeforeChunkRecordsGetsThem() throws {
        try FileManager.default.removeItem(atPath: dir.at("repo/chunks"))
        let update = try sync()
        #expect(update.chunkedObjects == 3)
        // The version left stays as the spare, with its objects and their records.
        let records = dir.files(under: "repo/chunks").filter { Names.isSHA1($0) }
        #expect(records.count == 6, "the records of the three large objects of each version")
    }

    /// Chunks are reused from whatever object holds them: here a file of another bundle.
    @Test func chunksComeFromAnyBundleOfTheRepo() throws {
        try dir.write("other/assets/pack-copy.bin", Self.pack)
        _ = try catalog.updateBundle("C", from: dir.at("other"))
        try DistroUpdate(catalog, bundle: "C", distro: "master", to: .number(1)).run()
        let fresh = try Repo.initialize(at: dir.at("fresh"))
        _ = try fresh.track(url: server.url, bundle: "C", options: options)
        #expect(try !SyncEngine(repo: fresh, options: options).sync().failed)
        _ = try fresh.track(url: server.url, bundle: "B", options: options)
        let report = try SyncEngine(repo: fresh, options: options).sync()
        let update = try #require(report.bundles.first { $0.bundle == "B" })
        #expect(update.error == nil && update.chunkedObjects == 1, "the pack, from bundle C's copy")
        #expect(try dir.read("fresh/bundles/\(Self.catalogID).B-2/pack.bin") == dir.read("src/pack.bin"))
    }
}
