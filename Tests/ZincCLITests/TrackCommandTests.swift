import Foundation
import Testing
import ZincTestSupport

/// `track` and `untrack` of one catalog typed in several spellings: one source each, and
/// found whichever spelling a user types.
@Suite struct TrackCommandTests {
    @Test func anotherSpellingOfATrackedURLAddsNoSource() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)  // http://127.0.0.1:PORT/
        let bare = String(server.url.dropLast())
        let here = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path
        try dir.zinc(["repo_init", "--repo", "repo"])
        for catalog in [server.url, bare, "HTTP" + bare.dropFirst("http".count), "cat", "file://\(here)/cat/", "file://\(here)/./cat"] {
            try dir.zinc(["track", "--repo", "repo", "--catalog", catalog, "--bundle", "B"])
        }
        // The spelling given first is the one kept: its requests and validators are the repo's.
        #expect(try sources(dir) == [server.url, "file://\(here)/cat"])

        // `untrack` finds the catalog by any spelling of any of its sources.
        for catalog in ["file://\(here)/cat/", "HTTP" + bare.dropFirst("http".count)] {
            try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
            #expect(
                try dir.zinc(["untrack", "--repo", "repo", "--catalog", catalog, "--bundle", "B"])
                    == "No longer tracking 'B' of \(catalog)\n")
        }
        #expect(try sources(dir) == [server.url, "file://\(here)/cat"])
    }

    /// A repo.json in which a zinc before this one tracked one URL in two spellings: the
    /// next `track` of it folds them into the first, and `untrack` finds it by either.
    @Test func spellingsTrackedTwiceBeforeAreFoldedIntoOne() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        let bare = String(server.url.dropLast())
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        var state = try #require(try JSONSerialization.jsonObject(with: Data(dir.read("repo/repo.json"))) as? [String: Any])
        var catalogs = try #require(state["catalogs"] as? [String: Any])
        var catalog = try #require(catalogs["com.example.app"] as? [String: Any])
        catalog["sources"] = [server.url, bare]
        catalog["etags"] = [bare: "\"stale\""]
        catalogs["com.example.app"] = catalog
        state["catalogs"] = catalogs
        try dir.write("repo/repo.json", [UInt8](try JSONSerialization.data(withJSONObject: state)))
        #expect(try sources(dir) == [server.url, bare])

        let shouted = "HTTP" + bare.dropFirst("http".count)
        #expect(
            try dir.zinc(["untrack", "--repo", "repo", "--catalog", shouted, "--bundle", "B"])
                == "No longer tracking 'B' of \(shouted)\n")
        try dir.zinc(["track", "--repo", "repo", "--catalog", bare, "--bundle", "B"])
        #expect(try sources(dir) == [server.url])
        #expect(try dir.zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.app.B: none -> 1 ("))
    }

    /// The sources `repo.json` holds for the catalog com.example.app.
    private func sources(_ dir: TemporaryDirectory) throws -> [String] {
        let state = try #require(try JSONSerialization.jsonObject(with: Data(dir.read("repo/repo.json"))) as? [String: Any])
        let catalog = try #require((state["catalogs"] as? [String: Any])?["com.example.app"] as? [String: Any])
        return try #require(catalog["sources"] as? [String])
    }
}
