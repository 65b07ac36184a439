import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Manifest deltas end to end: a repo holding version 1's manifest gets version 2's as
/// the chunks that differ (`manifest-chunks/`), from `zinc serve` on loopback; a hostile
/// or missing description costs the whole manifest, never a wrong tree.
@Suite struct ManifestDeltaTests {
    typealias CLI = ClientSyncTests

    /// Bundle `B` of 3,000 small files at version 1 and, one file changed, at version 2,
    /// which `master` points at; a repo synced to version 1 from a server of the catalog.
    /// With `signed`, the catalog is signed with key `k`, which the repo trusts.
    static func updateOfOneFile(in dir: TemporaryDirectory, signed: Bool = false) throws -> ServeProcess {
        let sign = signed ? ["--sign-key", "k"] : []
        if signed { try dir.zinc(["keygen", "--out", "k"]) }
        for i in 0..<3000 { try dir.write("src/level-\(i / 100)/item-\(i).txt", "item \(i) of the game") }
        try dir.zinc(["create_catalog", "--id", "com.example.game", "--dest", "cat"] + sign)
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"] + sign)
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"] + sign)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(
            ["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"] + (signed ? ["--trusted-key", "k.pub"] : []))
        try dir.zinc(["sync", "--repo", "repo", "--quiet"])
        try dir.write("src/level-15/item-1500.txt", "item 1500, patched")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"] + sign)
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2"] + sign)
        return server
    }

    /// In a signed catalog the rebuilt manifest must be the signed one: a description and
    /// copy whose chunks consistently make another manifest (the patch rolled back) cost
    /// the whole manifest, and the sync builds the signed version 2.
    @Test func aSignedCatalogTakesOnlyTheSignedManifestFromChunks() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir, signed: true)
        let plain = try dir.read("cat/manifests/B-2.json")
        func sha(of version: Int) throws -> String {
            let manifest = try JSONSerialization.jsonObject(with: Data(dir.read("cat/manifests/B-\(version).json"))) as? [String: Any]
            let files = try #require(manifest?["files"] as? [String: [String: Any]])
            return try #require(files["level-15/item-1500.txt"]?["sha"] as? String)
        }
        let forged = String(decoding: plain, as: UTF8.self).replacingOccurrences(of: try sha(of: 2), with: try sha(of: 1))
        try dir.write("cat/manifests/B-2.json", forged)
        try FileManager.default.removeItem(atPath: dir.at("cat/manifest-chunks/B-2.json.gz"))
        try dir.zinc(["add_manifest_chunks", "--catalog", "cat"])
        try dir.write("cat/manifests/B-2.json", plain)

        let bundle = try Self.syncToVersion2(dir)
        #expect(bundle["manifest_delta_error"] is String, "\(bundle)")
        _ = server
    }

    /// The bytes of bundle B's sync to version 2, which must have built exactly `src`,
    /// and the manifest it keeps exactly the catalog's.
    static func syncToVersion2(_ dir: TemporaryDirectory) throws -> [String: Any] {
        let bundle = try CLI.firstBundle(CLI.syncJSON(dir))
        #expect(bundle["version"] as? Int == 2 && bundle["outcome"] as? String == "updated", "\(bundle)")
        #expect(try CLI.sameFiles(dir, "src", "repo/bundles/com.example.game.B-2"))
        #expect(try dir.read("repo/manifests/com.example.game/B-2.json") == dir.read("cat/manifests/B-2.json"))
        return bundle
    }

    @Test func aOneFileUpdateMovesTheChunksThatDiffer() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir)
        let manifestSize = try dir.read("cat/manifests/B-2.json.gz").count
        let bundle = try Self.syncToVersion2(dir)
        let moved = try #require(bundle["bytes"] as? Int)
        // The description, a chunk or two of the manifest, the changed object.
        #expect(moved < manifestSize / 4, "moved \(moved) of a \(manifestSize)-byte manifest: \(bundle)")
        #expect(bundle["manifest_delta_error"] == nil)
        #expect(bundle["requests"] as? Int == 4, "the rollout file (missing), the description, the ranges, the object: \(bundle)")
        _ = server
    }

    @Test func aCatalogWithoutDescriptionsCostsTheWholeManifestAsBefore() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir)
        try FileManager.default.removeItem(atPath: dir.at("cat/manifest-chunks"))
        let manifestSize = try dir.read("cat/manifests/B-2.json.gz").count
        let bundle = try Self.syncToVersion2(dir)
        #expect(try #require(bundle["bytes"] as? Int) >= manifestSize)
        #expect(bundle["manifest_delta_error"] == nil, "no description is no error")
        _ = server
    }

    /// Each way a description or its chunks can lie is refused: the sync fetches the
    /// whole manifest, says why, and builds exactly version 2.
    @Test(arguments: [
        "wrong xxh64", "wrong sha256", "ranges past the end", "another file", "hostile chunk bytes", "size", "wrong length",
    ])
    func aHostileDescriptionCostsTheWholeManifest(_ lie: String) throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir)
        let path = "cat/manifest-chunks/B-2.json.gz"
        var description = try #require(
            try JSONSerialization.jsonObject(with: Data(GzipDecompressor.decompress(dir.read(path)))) as? [String: Any])
        var chunks = try #require(description["chunks"] as? [[Any]])
        let stored = try dir.read("cat/manifests/B-2.json.gz")
        switch lie {
        case "wrong xxh64":
            // Every chunk, so the changed one surely is.
            chunks = chunks.map { [$0[0], $0[1], "0123456789abcdef"] }
        case "wrong sha256":
            description["sha256"] = String(repeating: "ab", count: 32)
        case "ranges past the end":
            chunks[chunks.count - 1][1] = (chunks[chunks.count - 1][1] as! Int) + stored.count
        case "wrong length":
            // Every chunk a byte longer than it inflates to, the size to match.
            chunks = chunks.map { [($0[0] as! Int) + 1, $0[1], $0[2]] }
            description["size"] = (description["size"] as! Int) + chunks.count
        case "another file":
            description["file"] = "manifests/B-1.json.gz"
        case "hostile chunk bytes":
            // A copy whose deflated chunks were flipped, under the name a copy may have.
            var copy = stored
            for i in stride(from: 12, to: copy.count - 12, by: 7) { copy[i] ^= 0x55 }
            try dir.write("cat/manifest-chunks/B-2.manifest.json.gz", copy)
            description["file"] = "manifest-chunks/B-2.manifest.json.gz"
        default:
            description["size"] = (description["size"] as! Int) + 1
        }
        description["chunks"] = chunks
        try dir.write(path, GzipCompressor.compress(Array(try JSONSerialization.data(withJSONObject: description))))
        let bundle = try Self.syncToVersion2(dir)
        #expect(try #require(bundle["bytes"] as? Int) >= stored.count, "\(bundle)")
        #expect(bundle["manifest_delta_error"] is String, "\(bundle)")
        // The refused rebuild is kept nowhere: not as the manifest, not as a scratch file.
        #expect(dir.files(under: "repo/tmp").isEmpty, "\(dir.files(under: "repo/tmp"))")
        let verify = try dir.zinc.run(["verify", "--catalog", "cat"])
        #expect(verify.status != 0 && (verify.stdout + verify.stderr).contains("manifest-chunks/B-2.json.gz"), "\(verify)")
        _ = server
    }

    /// A catalog written before manifest chunks (ordinary gzip, no descriptions) gains
    /// them with `add_manifest_chunks`, without a manifest rewritten, and verifies.
    @Test func olderVersionsGainDescriptionsAndCopies() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir)
        try FileManager.default.removeItem(atPath: dir.at("cat/manifest-chunks"))
        for version in 1...2 {
            try dir.write("cat/manifests/B-\(version).json.gz", GzipCompressor.compress(dir.read("cat/manifests/B-\(version).json")))
        }
        let before = try dir.read("cat/manifests/B-2.json.gz")
        let added = try dir.zinc(["add_manifest_chunks", "--catalog", "cat"])
        #expect(
            added.hasPrefix(
                "wrote manifest-chunks/B-1.manifest.json.gz\nwrote manifest-chunks/B-1.json.gz\n"
                    + "wrote manifest-chunks/B-2.manifest.json.gz\nwrote manifest-chunks/B-2.json.gz\nAdded manifest chunks to 2 versions ("
            ),
            "\(added)")
        #expect(try dir.zinc(["add_manifest_chunks", "--catalog", "cat"]).hasPrefix("Added manifest chunks to 0 versions"))
        #expect(try dir.read("cat/manifests/B-2.json.gz") == before)
        #expect(try dir.zinc(["verify", "--catalog", "cat"]).contains("no problems"))
        let bundle = try Self.syncToVersion2(dir)
        #expect(try #require(bundle["bytes"] as? Int) < before.count / 4, "\(bundle)")
        #expect(bundle["manifest_delta_error"] == nil)
        _ = server
    }

    /// Each kept manifest's table (`B-V.table`) is written by the sync that keeps it; a
    /// damaged one is rebuilt by the next read (here `status`'s); the next update reads
    /// the spare's files from the table alone (its manifest, made garbage of the same
    /// size, is not parsed, and the spare folder becomes the new version); `repo verify`
    /// passes with the tables there.
    @Test func anUpdateReadsTheSparesTableNotItsManifest() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.updateOfOneFile(in: dir)
        let manifests = "repo/manifests/com.example.game"
        let table1 = try dir.read(manifests + "/B-1.table")
        try dir.write(manifests + "/B-1.table", Array(table1.dropLast(1)))
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("local 1, remote 1"))
        #expect(try dir.read(manifests + "/B-1.table") == table1)
        _ = try Self.syncToVersion2(dir)
        #expect(Set(dir.files(under: manifests)) == ["B-1.json", "B-1.table", "B-2.json", "B-2.table"])

        let spare = try dir.read(manifests + "/B-1.json")
        try dir.write(manifests + "/B-1.json", [UInt8](repeating: UInt8(ascii: " "), count: spare.count))
        var folder = stat()
        #expect(stat(dir.at("repo/bundles/com.example.game.B-1"), &folder) == 0)
        try dir.write("src/level-2/item-200.txt", "item 200, patched")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "3"])
        let bundle = try CLI.firstBundle(CLI.syncJSON(dir))
        #expect(bundle["version"] as? Int == 3 && bundle["outcome"] as? String == "updated", "\(bundle)")
        #expect(try CLI.sameFiles(dir, "src", "repo/bundles/com.example.game.B-3"))
        var updated = stat()
        #expect(stat(dir.at("repo/bundles/com.example.game.B-3"), &updated) == 0 && updated.st_ino == folder.st_ino, "the spare was used")
        #expect(Set(dir.files(under: manifests)) == ["B-2.json", "B-2.table", "B-3.json", "B-3.table"])
        #expect(try dir.zinc(["repo", "verify", "--repo", "repo"]) == "com.example.game.B 3: healthy\n")
        _ = server
    }
}
