import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `export_seed` and `repo seed` end to end: a first launch offline, then syncs from `zinc serve`.
@Suite struct SeedCommandTests {
    @Test func anAppStartsFromItsSeedOfflineThenSyncs() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        let exported = try zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed", "--quiet"], in: dir)
        #expect(exported.hasPrefix("Exported a seed of 'B' version 1 (3 files, "), "\(exported)")
        let again = try ZincBinary.run(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed"], in: dir.path)
        #expect(again.status == 1 && again.stderr.contains("app/seed"))

        // Offline: the URL later syncs use answers nothing yet.
        let seeded = try zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--catalog", "http://127.0.0.1:9/"], in: dir)
        #expect(seeded.hasPrefix("com.example.app.B: seeded version 1, 3 files; 3 objects linked ("), "\(seeded)")
        #expect(try ClientSyncTests.sameFiles(dir, "src", "device/bundles/com.example.app.B-1"))
        #expect(try zinc(["status", "--repo", "device"], in: dir).contains("local 1, remote 1, 3 files"))
        let json = try zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--json"], in: dir)
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(kept["switched"] as? Bool == false && kept["checked_out_version"] as? Int == 1)

        // Online, a version 2: the sync fetches only the new file.
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try zinc(["track", "--repo", "device", "--catalog", server.url, "--bundle", "B"], in: dir)
        try dir.write("src/more.txt", "new in version 2")
        try ClientSyncTests.publishB(in: dir, version: 2)
        let output = try zinc(["sync", "--repo", "device", "--strategy", "objects", "--json"], in: dir)
        let report = try ClientSyncTests.firstBundle(
            try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]))
        #expect(report["outcome"] as? String == "updated" && report["missing_objects"] as? Int == 1, "\(report)")
        #expect(try ClientSyncTests.sameFiles(dir, "src", "device/bundles/com.example.app.B-2"))
    }

    /// `--writable`: the app's own files, which it may write to, not links into the store.
    @Test func aWritableSeedGivesTheAppFilesOfItsOwn() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        try zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed", "--quiet"], in: dir)
        try zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--catalog", "http://127.0.0.1:9/", "--writable"], in: dir)
        let folder = "device/bundles/com.example.app.B-1"
        #expect(try ClientSyncTests.sameFiles(dir, "src", folder))
        let manifest = try Manifest.parse(dir.read("cat/manifests/B-1.json"), path: "B-1")
        for path in manifest.paths(flavor: nil) {
            var file = stat()
            var object = stat()
            #expect(
                lstat(dir.at("\(folder)/\(path)"), &file) == 0 && lstat(dir.at("device/objects/\(manifest.files[path]!.sha)"), &object) == 0
            )
            #expect(file.st_mode & S_IWUSR != 0, "\(path) is writable")
            #expect(file.st_ino != object.st_ino, "\(path) is no link into the store")
        }
        // The app's edit is its own: the store keeps the seed's bytes.
        try dir.write("\(folder)/\(manifest.paths(flavor: nil)[0])", "the app's own")
        #expect(try zinc(["repo", "verify", "--repo", "device"], in: dir) == "com.example.app.B 1: healthy\n")
    }

    @discardableResult
    private func zinc(_ arguments: [String], in dir: TemporaryDirectory) throws -> String {
        try zincSucceeds(arguments, in: dir.path)
    }
}
