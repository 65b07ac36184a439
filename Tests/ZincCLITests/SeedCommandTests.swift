import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `export_seed` and `repo seed` end to end: a first launch offline, then syncs from `zinc serve`.
@Suite struct SeedCommandTests {
    @Test func anAppStartsFromItsSeedOfflineThenSyncs() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        let exported = try dir.zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed", "--quiet"])
        #expect(exported.hasPrefix("Exported a seed of 'B' version 1 (3 files, "), "\(exported)")
        let again = try dir.zinc.run(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed"])
        #expect(again.status == 1 && again.stderr.contains("app/seed"))

        // Offline: the URL later syncs use answers nothing yet.
        let seeded = try dir.zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--catalog", "http://127.0.0.1:9/"])
        #expect(seeded.hasPrefix("com.example.app.B: seeded version 1, 3 files; 3 objects linked ("), "\(seeded)")
        #expect(try ClientSyncTests.sameFiles(dir, "src", "device/bundles/com.example.app.B-1"))
        #expect(try dir.zinc(["status", "--repo", "device"]).contains("local 1, remote 1, 3 files"))
        let json = try dir.zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--json"])
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(kept["switched"] as? Bool == false && kept["checked_out_version"] as? Int == 1)

        // Online, a version 2: the sync fetches only the new file.
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["track", "--repo", "device", "--catalog", server.url, "--bundle", "B"])
        try dir.write("src/more.txt", "new in version 2")
        try ClientSyncTests.publishB(in: dir, version: 2)
        let output = try dir.zinc(["sync", "--repo", "device", "--strategy", "objects", "--json"])
        let report = try ClientSyncTests.firstBundle(
            try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]))
        #expect(report["outcome"] as? String == "updated" && report["missing_objects"] as? Int == 1, "\(report)")
        #expect(try ClientSyncTests.sameFiles(dir, "src", "device/bundles/com.example.app.B-2"))
    }

    /// `--writable`: the app's own files, which it may write to, not links into the store.
    @Test func aWritableSeedGivesTheAppFilesOfItsOwn() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        try dir.zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "app/seed", "--quiet"])
        try dir.zinc(["repo", "seed", "--repo", "device", "--seed", "app/seed", "--catalog", "http://127.0.0.1:9/", "--writable"])
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
        #expect(try dir.zinc(["repo", "verify", "--repo", "device"]) == "com.example.app.B 1: healthy\n")
    }

    /// A seed carries the distribution it was exported by (`seed-distro.json`), which a
    /// repo started from it follows unless `repo seed --distro` says otherwise; a seed of
    /// a version by number carries none, and its repo follows master.
    @Test func aSeedIsTrackedAtTheDistributionItWasExportedBy() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        try dir.write("src/more.txt", "new in version 2")
        try ClientSyncTests.publishB(in: dir, version: 2)  // master: 2
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "legacy", "--version", "1"])
        let exported = try dir.zinc(
            ["export_seed", "--catalog", "cat", "--bundle", "B", "--distro", "legacy", "--out", "legacy", "--quiet"])
        #expect(exported.hasPrefix("Exported a seed of 'B' version 1 (3 files, ") && exported.contains("unsigned, distribution 'legacy')"))
        #expect(try dir.read("legacy/seed-distro.json") == Array(#"{"distro":"legacy","format":1}"#.utf8))
        #expect(try dir.read("legacy/seed.json") == Array(#"{"bundle":"B","catalog":"com.example.app","format":1,"version":1}"#.utf8))
        let json = try dir.zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--version", "1", "--out", "numbered", "--json"])
        let numbered = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(numbered["version"] as? Int == 1 && numbered["distro"] == nil && !dir.exists("numbered/seed-distro.json"))

        let server = try ServeProcess(catalog: "cat", in: dir.path)
        let seeded = try dir.zinc(["repo", "seed", "--repo", "device", "--seed", "legacy", "--catalog", server.url])
        #expect(
            seeded.hasPrefix("com.example.app.B: seeded version 1, 3 files; ") && seeded.hasSuffix("; tracked at distribution 'legacy'\n"))
        #expect(try dir.zinc(["sync", "--repo", "device"]) == "com.example.app.B: up to date at version 1\n")
        #expect(try dir.zinc(["status", "--repo", "device"]).hasPrefix("com.example.app.B @legacy: local 1, remote 1, "))

        // Told otherwise, or given a seed without the file, the repo follows master.
        for (seed, distro) in [("legacy", ["--distro", "master"]), ("numbered", [])] {
            let repo = "device-" + seed
            let output = try dir.zinc(["repo", "seed", "--repo", repo, "--seed", seed, "--catalog", server.url, "--json"] + distro)
            let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            #expect(result["distro"] as? String == "master", "\(seed)")
            #expect(try dir.zinc(["sync", "--repo", repo]).hasPrefix("com.example.app.B: 1 -> 2 ("), "\(seed)")
        }
    }

    /// `seed-distro.json` comes with the app, untrusted as the rest: a file that is not
    /// one is refused, naming it, before anything is placed.
    @Test func aDamagedSeedDistroFileIsRefusedNamingIt() throws {
        let dir = try TemporaryDirectory()
        try ClientSyncTests.publishB(in: dir, version: 1)
        try dir.zinc(["export_seed", "--catalog", "cat", "--bundle", "B", "--out", "seed", "--quiet"])
        #expect(try dir.read("seed/seed-distro.json") == Array(#"{"distro":"master","format":1}"#.utf8))
        for (content, reason) in [
            (#"{"distro":"../up","format":1}"#, "'../up'"), (#"{"distro":"legacy","format":1,"extra":1}"#, "unknown key 'extra'"),
            (#"{"distro":"legacy","format":2}"#, "no 'format' 1"), (#"{"format":1}"#, "no string 'distro'"),
            (String(repeating: " ", count: 65 << 10), "larger than 65536 bytes"), ("[]", "not a JSON object"),
        ] {
            try dir.write("seed/seed-distro.json", content)
            let result = try dir.zinc.run(["repo", "seed", "--repo", "device", "--seed", "seed", "--catalog", "cat"])
            #expect(
                result.status != 0 && result.stderr.contains("seed/seed-distro.json") && result.stderr.contains(reason), "\(result.stderr)")
            #expect(!dir.exists("device/bundles/com.example.app.B-1"))
        }
    }
}
