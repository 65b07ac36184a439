import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// `SyncOptions.documentLimit` bounds what a server sends for a document, not the size
/// of the plain manifest a client rebuilds: at 1,000,000 files a manifest is 112 MB of
/// JSON, served as 35 MB of gzip, and a one-file update must still fetch its delta. Each
/// test sets the limit at the boundary, at a bundle small enough to stay fast.
@Suite struct DocumentLimitTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    let server: HostileHTTPServer
    let repo: Repo

    /// Bundle `B` of 3,000 small files synced at version 1; version 2, one file changed,
    /// on `master`.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.big", in: FileStorage(root: dir.at("cat")))
        for i in 0..<3000 { try dir.write("src/level-\(i / 100)/item-\(i).txt", "item \(i) of the game") }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        server = try HostileHTTPServer(serving: dir.at("cat"))
        repo = try Repo.initialize(at: dir.at("repo"))
        _ = try repo.track(url: server.url, bundle: "B", options: options(documentLimit: SyncOptions.defaultDocumentLimit))
        #expect(try !SyncEngine(repo: repo, options: options(documentLimit: SyncOptions.defaultDocumentLimit)).sync().failed)
        try dir.write("src/level-15/item-1500.txt", "item 1500, patched")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
    }

    func options(documentLimit: Int64) -> SyncOptions {
        SyncOptions(documentLimit: documentLimit, sourceFactory: ClientTransport.standard.sourceFactory)
    }

    /// A limit one byte below the plain manifest, above all the served documents: the
    /// update rebuilds the manifest from its delta (it fell back to the whole one, moving
    /// it all, when the limit was taken for the rebuilt manifest's).
    @Test func aManifestLargerThanTheDocumentLimitStillComesAsADelta() throws {
        let plain = Int64(try dir.read("cat/manifests/B-2.json").count)
        let gzipped = Int64(try dir.read("cat/manifests/B-2.json.gz").count)
        #expect(gzipped < plain / 2, "the manifest served is far below the limit")
        let report = try SyncEngine(repo: repo, options: options(documentLimit: plain - 1)).sync()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.error == nil && bundle.version == 2, "\(bundle.line)")
        #expect(bundle.manifestDeltaError == nil, "\(bundle.manifestDeltaError ?? "")")
        #expect(bundle.bytes < gzipped / 2, "moved \(bundle.bytes) bytes of a \(gzipped)-byte manifest")
        #expect(try dir.read("repo/manifests/com.example.big/B-2.json") == dir.read("cat/manifests/B-2.json"))
        #expect(try dir.read("repo/bundles/com.example.big.B-2/level-15/item-1500.txt") == Array("item 1500, patched".utf8))
    }
}
