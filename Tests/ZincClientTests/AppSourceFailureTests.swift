import Foundation
import Synchronization
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A `CatalogSource` of an app's own reports its failures with the public
/// `SyncError(_:message:url:httpStatus:)`, and the sync treats them as its own
/// transports' failures: a file one mirror does not have is fetched from the next.
@Suite struct AppSourceFailureTests {
    @Test func aFileAMirrorLacksIsFetchedFromTheNext() async throws {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        try dir.write("src/a.txt", "a")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        let repo = try Repo.initialize(at: URL(fileURLWithPath: dir.at("repo")))
        // The first mirror has the index and manifests but none of the objects.
        let lacking = ReportingSource(url: "https://a.example/cat", folder: dir.at("cat"), lacks: "objects/")
        let whole = ReportingSource(url: "https://b.example/cat", folder: dir.at("cat"), lacks: nil)
        let options = SyncOptions(strategy: .objects, sourceFactory: { $0 == lacking.url ? lacking : whole })
        try await repo.track(url: URL(string: lacking.url)!, bundle: "B", options: options)
        try await repo.track(url: URL(string: whole.url)!, bundle: "B", options: options)
        let report = try await repo.sync(options: options)
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(report.bundles.map(\.line))")
        #expect(lacking.reportedMissing.contains { $0.hasPrefix("objects/") })
        #expect(try dir.read("repo/current/com.example.app.B/a.txt") == Array("a".utf8))
    }
}

/// A catalog folder read through the package's file source, as a mirror at `url`: the
/// files it does not have (under `lacks`, or not in the folder) are reported as an app's
/// source would, with a `SyncError` of code `notFound`.
private final class ReportingSource: CatalogSource {
    let url: String
    private let folder: String
    private let lacks: String?
    private let files: FileCatalogSource
    private let missing = Mutex<[String]>([])

    init(url: String, folder: String, lacks: String?) {
        self.url = url
        self.folder = folder
        self.lacks = lacks
        files = FileCatalogSource(url: url, root: folder)
    }

    var reportedMissing: [String] { missing.withLock { $0 } }

    func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        let lacked = lacks.map { request.path.hasPrefix($0) } ?? false
        guard !lacked, FileManager.default.fileExists(atPath: folder + "/" + request.path) else {
            missing.withLock { $0.append(request.path) }
            throw SyncError(.notFound, message: "no \(request.path) here", url: URL(string: url + "/" + request.path))
        }
        return try files.fetch(request, into: sink)
    }
}
