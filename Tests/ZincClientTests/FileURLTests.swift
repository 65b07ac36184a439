import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// An app names folders and catalogs by `URL`: a file URL's path is what is used, spaces
/// and all, never its percent-encoded spelling.
@Suite struct FileURLTests {
    @Test func aCatalogAndARepoInFoldersWithSpacesAreTheirPaths() async throws {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("my catalogs/french")))
        try dir.write("src/a word.txt", "mot")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        let catalogURL = URL(fileURLWithPath: dir.at("my catalogs/french"), isDirectory: true)

        let repo = try Repo.openOrCreate(at: URL(fileURLWithPath: dir.at("App Support/zinc")))
        #expect(repo.folder.path == dir.at("App Support/zinc"))
        try await repo.track(url: catalogURL, bundle: "B")
        // A new version after `track`, so that the sync's index request is answered whole.
        try dir.write("src/another word.txt", "autre")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
        let report = try await repo.sync()
        #expect(report.bundles.first?.outcome == .updated, "\(report.bundles.map(\.line))")
        #expect(report.catalogs.first?.url?.path == catalogURL.path)
        let current = repo.currentFolder(catalog: "com.example.app", bundle: "B")
        #expect(try Data(contentsOf: current.appendingPathComponent("a word.txt")) == Data("mot".utf8))
        #expect(
            repo.bundleFolder(catalog: "com.example.app", bundle: "B", version: 2).path
                == dir.at("App Support/zinc/bundles/com.example.app.B-2"))
    }

    @Test func aFolderThatIsNoFileURLIsRefused() throws {
        #expect {
            _ = try Repo.openOrCreate(at: URL(string: "https://example.com/repo")!)
        } throws: { error in
            let error = error as? SyncError
            return error?.code == .invalidRequest && error?.url == URL(string: "https://example.com/repo")
                && error?.message == "'https://example.com/repo' is no local folder: name a repo or a seed by a file URL"
        }
    }
}
