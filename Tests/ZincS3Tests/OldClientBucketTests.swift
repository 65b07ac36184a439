import Foundation
import Testing
import Zinc
import ZincCurl
import ZincTestSupport

/// A bucket published version after version (`clean --force --grace 0`, then `publish
/// --delete --grace 0`, as `Benchmarks/publish-growth` does), read as JavaZinc and the
/// original Python tool read a catalog: plain GETs of the index, `distributions[D]`, the
/// version's manifest, then its archive, unpacked. Every version a distribution or its
/// `_D` pointer names is there whole, byte for byte, whatever way publish put its
/// archive in the bucket; the large file changes by one byte per version.
@Suite struct OldClientBucketTests {
    let server: MotoServer
    let bucket: String
    let dir: TemporaryDirectory
    let http = HTTPClient()

    init() throws {
        server = try MotoServer.shared()
        bucket = try server.makeBucket(publicRead: true)
        dir = try TemporaryDirectory()
        try zinc("create_catalog", "--id", "com.example.old", "--dest", "cat")
    }

    var zinc: ZincRunner { ZincRunner(in: dir, environment: server.environment, silentStderr: false) }

    /// `tree<version>`: a chunked large file with one byte flipped per version, small
    /// JSON files with one rewritten per version.
    func writeTree(_ version: Int) throws {
        var large = SampleContent.noise(3_000_000, seed: 7)
        for v in 1..<version { large[v * 400_000] ^= 0xFF }
        try dir.write("tree\(version)/textures/atlas.bin", large)
        for i in 0..<6 {
            let revision = i == version % 6 ? version : 0
            try dir.write("tree\(version)/levels/level-\(i).json", Array(#"{"level": \#(i), "revision": \#(revision)}"#.utf8))
        }
    }

    /// A GET of `path` under the bucket's `cat/`, as an old client makes it.
    func get(_ path: String) throws -> [UInt8] {
        let response = try http.collect(HTTPRequest(.get, server.url(bucket: bucket, prefix: "cat/" + path)), limit: 1 << 26)
        guard response.failure == nil, response.head.status == 200 else {
            throw TestServerError("GET \(path): \(response.failure ?? "HTTP \(response.head.status)")")
        }
        return response.body
    }

    @Test func everyPointedVersionIsWholeInTheBucket() throws {
        for version in 1...4 {
            try writeTree(version)
            try zinc("update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "tree\(version)", "--quiet")
            try zinc("update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "latest")
            if version == 2 { try zinc("update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "beta", "--version", "1") }
            try zinc("clean", "--catalog", "cat", "--force", "--grace", "0")
            try zinc("publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--delete", "--grace", "0", "--quiet")
        }
        // The Python tool reads index.json, JavaZinc catalog.json.gz: the same document.
        let indexBytes = try get("index.json")
        #expect(try GzipDecompressor.decompress(get("catalog.json.gz")) == indexBytes)
        let distributions = try OldClientReading.distributions(index: indexBytes, bundle: "Game")
        #expect(distributions == ["master": 4, "_master": 3, "beta": 1])
        for (distro, version) in distributions {
            let files = try OldClientReading.files(
                gzippedManifest: get("manifests/Game-\(version).json.gz"), archive: get("archives/Game-\(version).tar"))
            #expect(files.keys.sorted() == dir.files(under: "tree\(version)"), "\(distro)")
            for (path, content) in files { #expect(content == (try dir.read("tree\(version)/" + path)), "\(distro): \(path)") }
        }
        // Version 2 is named by no pointer any more: its archive was removed with the grace of 0.
        let gone = try http.collect(HTTPRequest(.get, server.url(bucket: bucket, prefix: "cat/archives/Game-2.tar")), limit: 1 << 26)
        #expect(gone.head.status == 404)
    }

    /// A staged release made in the catalog and published to the bucket after each
    /// change: old clients, which do not read the rollout file, get the control's files
    /// from the bucket until `complete`, then the candidate's.
    @Test func oldClientsGetTheControlFromTheBucketUntilARolloutCompletes() throws {
        for version in 1...3 {
            try writeTree(version)
            try zinc("update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "tree\(version)", "--quiet")
        }
        try zinc("update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "1")
        for step in RolloutWalk.steps {
            let arguments = ["rollout"] + step.arguments + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"]
            try dir.zinc.succeeds(arguments, environment: server.environment)
            try zinc("publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--delete", "--grace", "0", "--quiet")
            let distributions = try OldClientReading.distributions(index: get("index.json"), bundle: "Game")
            #expect(distributions["master"] == step.pointer, "after \(step.arguments)")
            let files = try OldClientReading.files(
                gzippedManifest: get("manifests/Game-\(step.pointer).json.gz"), archive: get("archives/Game-\(step.pointer).tar"))
            #expect(files.keys.sorted() == dir.files(under: "tree\(step.pointer)"), "after \(step.arguments)")
            for (path, content) in files {
                #expect(content == (try dir.read("tree\(step.pointer)/" + path)), "after \(step.arguments): \(path)")
            }
        }
    }
}
