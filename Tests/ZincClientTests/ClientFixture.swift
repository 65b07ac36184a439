import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A catalog with bundle `B` (version 1 on `master`), served by a `HostileHTTPServer`
/// that is honest until a test overrides a path, and an empty client repo.
final class ClientFixture {
    static let catalogID = "com.example.app"
    let dir: TemporaryDirectory
    let catalog: Catalog
    let server: HostileHTTPServer
    let repo: Repo
    /// How the repo fetches from the server.
    let transport: ClientTransport

    init(transport: ClientTransport = .standard) throws {
        self.transport = transport
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: Self.catalogID, in: FileStorage(root: dir.at("cat")))
        for i in 0..<6 {
            try dir.write("src/photos/\(i).jpg", SampleContent.noise(3000 + 700 * i, seed: UInt64(i + 1)))
        }
        try dir.write("src/lessons/words.json", SampleContent.text(9000, word: "bonjour"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        server = try HostileHTTPServer(serving: dir.at("cat"))
        repo = try Repo.initialize(at: dir.at("repo"))
    }

    deinit { server.stop() }

    /// Where every update test starts: version 1 tracked and synced into the repo (with
    /// `strategy`), then version 2 published.
    static func version1SyncedVersion2Published(strategy: FetchStrategy? = nil, transport: ClientTransport = .standard) throws
        -> ClientFixture
    {
        let fixture = try ClientFixture(transport: transport)
        try fixture.track()
        _ = try fixture.sync(strategy)
        try fixture.publishVersion2()
        return fixture
    }

    /// Version 2: two photos replaced and one text added, moved to `master`.
    func publishVersion2() throws {
        try dir.write("src/photos/1.jpg", SampleContent.noise(5000, seed: 101))
        try dir.write("src/photos/4.jpg", SampleContent.noise(6000, seed: 104))
        try dir.write("src/lessons/more.json", SampleContent.text(4000, word: "salut"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
    }

    func manifest(_ version: Int) throws -> Manifest {
        try Manifest.parse(dir.read("cat/manifests/B-\(version).json"), path: "B-\(version)")
    }

    func options(_ strategy: FetchStrategy? = nil, documentLimit: Int64 = SyncOptions.defaultDocumentLimit) -> SyncOptions {
        SyncOptions(strategy: strategy, documentLimit: documentLimit, sourceFactory: transport.sourceFactory)
    }

    func track(documentLimit: Int64 = SyncOptions.defaultDocumentLimit) throws {
        try repo.track(url: server.url, bundle: "B", options: options(documentLimit: documentLimit))
    }

    func sync(_ strategy: FetchStrategy? = nil, documentLimit: Int64 = SyncOptions.defaultDocumentLimit) throws -> SyncReport {
        try SyncEngine(repo: repo, options: options(strategy, documentLimit: documentLimit)).sync()
    }

    func bundleFolder(_ version: Int) -> String { "repo/bundles/\(Self.catalogID).B-\(version)" }

    /// Whether the repo's folder of `version` holds exactly the source tree's files.
    func bundleMatchesSource(_ version: Int) throws -> Bool {
        let files = dir.files(under: "src")
        guard dir.files(under: bundleFolder(version)) == files else { return false }
        return try files.allSatisfy { try dir.read("src/" + $0) == dir.read(bundleFolder(version) + "/" + $0) }
    }

    /// The error of the single bundle of `report`.
    func failure(_ report: SyncReport) -> String {
        report.bundles.first?.error ?? report.catalogs.first?.error ?? ""
    }
}
