import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The `zinc` commands on `s3://` catalogs, end to end through the built binary and
/// moto's server: the same output as on a local catalog, the same files in the bucket,
/// and several processes at once.
@Suite struct S3CommandTests {
    let server: MotoServer
    let bucket: String
    let dir: TemporaryDirectory

    init() throws {
        server = try MotoServer.shared()
        bucket = try server.makeBucket()
        dir = try TemporaryDirectory()
    }

    var catalog: String { "s3://\(bucket)/cat" }

    /// Runs zinc with the server's credentials and endpoint in its environment.
    var zinc: ZincRunner { ZincRunner(in: dir, environment: server.environment) }

    /// The catalog's keys in the bucket, catalog-relative, without lock objects.
    func keys() throws -> [String] {
        try server.keys(bucket: bucket, prefix: "cat").map { String($0.dropFirst("cat/".count)) }.filter { !$0.hasPrefix("locks/") }
    }

    /// Each command on the S3 catalog and on a local one, in step: the same output
    /// (but for the catalog's name), and in the end the same files, byte for byte.
    @Test func everyCommandWorksOnAnS3CatalogAsOnALocalOne() throws {
        try SampleContent.basicAdjectives(in: dir)
        let targets = [catalog, "local"]
        /// Runs one command on both catalogs; returns the S3 output after checking the
        /// local one is the same with the names swapped.
        func both(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            // The commands an output suggests name the catalog they were run on: as CAT here.
            let outputs = try targets.map { target in
                try zinc(
                    arguments.map { $0 == "CAT" ? target : $0 == "OUT" ? (target == "local" ? "out-local" : "out-s3") : $0 },
                    sourceLocation: sourceLocation
                ).replacingOccurrences(of: "--catalog \(target)'", with: "--catalog CAT'")
            }
            #expect(
                outputs[1] == outputs[0].replacingOccurrences(of: "out-s3", with: "out-local"), "\(arguments)",
                sourceLocation: sourceLocation)
            return outputs[0]
        }

        // --endpoint-url instead of AWS_ENDPOINT_URL (empty counts as unset).
        var withoutEndpoint = server.environment
        withoutEndpoint["AWS_ENDPOINT_URL"] = ""
        #expect(
            try zinc(
                ["create_catalog", "--id", "com.example.s3", "--dest", catalog, "--endpoint-url", server.endpoint],
                environment: withoutEndpoint) == "Created catalog 'com.example.s3' at \(catalog)\n")
        try zinc("create_catalog", "--id", "com.example.s3", "--dest", "local")
        #expect(try keys() == ["catalog.json", "catalog.json.gz", "config.json", "index.json", "index.json.gz"])
        let again = try zinc.run(["create_catalog", "--id", "com.example.s3", "--dest", catalog])
        #expect(again.status == 1 && again.stderr.contains(catalog), "\(again.stderr)")
        // Archives of every version, as the removals below look at an unnamed version's.
        #expect(
            try both(["update_archive_policy", "--catalog", "CAT", "--keep", "all"])
                == "archives: kept for every version (config/archives.json)\n")

        #expect(
            try both(["update_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--source", "src"]).hasPrefix(
                "Created bundle 'BasicAdjectives' version 1 (new bundle)\n"))
        try dir.write("src/photos/85x85/kind.jpg", SampleContent.noise(9000, seed: 2))
        #expect(
            try both(["update_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--source", "src"]).hasPrefix(
                "Created bundle 'BasicAdjectives' version 2\n"))
        #expect(
            try both(["update_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--source", "src"])
                == "Bundle 'BasicAdjectives' unchanged at version 2\n")
        #expect(
            try both(["update_distro", "--catalog", "CAT", "--id", "BasicAdjectives", "--name", "master", "--version", "1"])
                == "Created distribution 'master' for 'BasicAdjectives-v1'\n")
        #expect(
            try both(["update_distro", "--catalog", "CAT", "--id", "BasicAdjectives", "--name", "master", "--version", "latest"])
                == "Updated distribution 'master' for 'BasicAdjectives-v2' (was v1)\n")
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        #expect(
            try both(["update_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--source", "src"]).hasPrefix(
                "Created bundle 'BasicAdjectives' version 3\n"))
        #expect(try both(["list", "--catalog", "CAT"]) == "BasicAdjectives [1=(_master), 2=(master), 3]\n")

        let index = try both(["dump_index", "--catalog", "CAT"])
        #expect(index.contains("\"next_version\": 3") && index.contains("\"id\": \"com.example.s3\""))
        let manifest = try both(["dump_manifest", "--catalog", "CAT", "--name", "BasicAdjectives", "--version", "@master"])
        let files = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])["files"] as? [String: Any]
        #expect(files?.keys.sorted() == ["Basic Adjectives.js", "audio/basic-adj-11.caf", "photos/85x85/kind.jpg"])
        #expect((files?["photos/85x85/kind.jpg"] as? [String: Any])?["sha"] as? String == sha1Hex(SampleContent.noise(9000, seed: 2)))
        #expect(try both(["verify", "--catalog", "CAT"]) == "Verified 1 bundle, 3 versions, 5 objects, 3 archives: no problems\n")

        let folder = "com.example.s3.BasicAdjectives-2"
        #expect(
            try both(["clone_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--version", "@master", "--dest", "OUT"])
                == "Cloned 'BasicAdjectives' version 2 (3 files) to out-s3/\(folder)\n")
        #expect(try dir.catalogContent("out-s3/\(folder)") == dir.catalogContent("out-local/\(folder)"))
        #expect(try dir.read("out-s3/\(folder)/photos/85x85/kind.jpg") == SampleContent.noise(9000, seed: 2))

        let deleted = try both(["delete_bundle", "--catalog", "CAT", "--name", "BasicAdjectives", "--versions", "3"])
        #expect(
            deleted == """
                manifests/BasicAdjectives-3.json
                manifests/BasicAdjectives-3.json.gz
                sizes/BasicAdjectives-3.json.gz
                lmfo/BasicAdjectives-3.json
                manifest-chunks/BasicAdjectives-3.json.gz
                archives/BasicAdjectives-3.tar
                Deleted version 3 of 'BasicAdjectives'
                The files stay 5 minutes for clients holding the old index; 'zinc clean --force --catalog CAT' removes them after that

                """)
        #expect(try keys().contains("archives/BasicAdjectives-3.tar"), "delete_bundle leaves the files to clean")
        let dryRun = try both(["clean", "--catalog", "CAT", "--grace", "0"])
        #expect(dryRun.hasSuffix(" kB)\n") && dryRun.contains("Would remove 7 files ("), "\(dryRun)")
        #expect(try keys().contains("archives/BasicAdjectives-3.tar"))
        let removed = try both(["clean", "--catalog", "CAT", "--force", "--grace", "0"])
        #expect(removed == dryRun.replacingOccurrences(of: "Would remove", with: "Removed"))
        #expect(try both(["clean", "--catalog", "CAT", "--force", "--grace", "0"]) == "Removed 0 files (0 B)\n")
        #expect(try both(["verify", "--catalog", "CAT"]) == "Verified 1 bundle, 2 versions, 4 objects, 2 archives: no problems\n")
        #expect(try both(["list", "--catalog", "CAT"]) == "BasicAdjectives [1=(_master), 2=(master)]\n")

        // The bucket holds exactly the local catalog's files, byte for byte.
        let local = try dir.catalogContent("local").filter { !$0.key.hasPrefix(".") }
        #expect(try keys() == local.keys.sorted())
        #expect(!(try keys()).contains { $0.hasPrefix("archives/BasicAdjectives-3") || $0.hasPrefix("retired/") })
        for (path, bytes) in local {
            #expect(try server.object(bucket: bucket, key: "cat/" + path) == bytes, "\(path) differs")
        }
    }

    /// Four `zinc update_bundle` processes import different trees into one bundle at
    /// once: each gets a version of its own whose manifest lists its own files.
    @Test func concurrentImportsIntoOneBundleEachGetTheirOwnVersion() throws {
        try zinc("create_catalog", "--id", "com.example.race", "--dest", catalog)
        // Archives at import, so that the races rebuild them.
        try zinc("update_archive_policy", "--catalog", catalog, "--keep", "all")
        try SampleContent.basicAdjectives(in: dir, at: "base")
        #expect(
            try zinc("update_bundle", "--catalog", catalog, "--name", "B", "--source", "base").hasPrefix(
                "Created bundle 'B' version 1 (new bundle)\n"))
        let writers = 4
        for n in 0..<writers {
            try SampleContent.basicAdjectives(in: dir, at: "src\(n)")
            try dir.write("src\(n)/own-\(n).json", SampleContent.text(2000 + n, word: "writer\(n)"))
            try dir.write("src\(n)/photos/\(n).jpg", SampleContent.noise(5000 + n, seed: UInt64(40 + n)))
        }
        let results = ResultLog()
        DispatchQueue.concurrentPerform(iterations: writers) { n in
            let result = Result { try zinc.run(["update_bundle", "--catalog", catalog, "--name", "B", "--source", "src\(n)"]) }
            results.add(n, result)
        }
        var versions = [Int: Int]()  // writer: version
        for (n, result) in results.all {
            let output = try result.get()
            // Without a writer lock on S3, a writer may find the copies of the index behind
            // catalog.json while another is still writing them, and says it repairs them.
            let warnings = output.stderr.split(separator: "\n").filter { !$0.hasPrefix("zinc: repairing ") }
            #expect(output.status == 0 && warnings.isEmpty, "writer \(n): \(output.stderr)")
            let created = "Created bundle 'B' version "
            let version: Int? =
                output.stdout.hasPrefix(created)
                ? Int(output.stdout.dropFirst(created.count).prefix { $0 != "\n" }) : nil
            let number = try #require(version, "writer \(n) printed \(output.stdout)")
            versions[n] = number
        }
        // Four numbers, one each. Not always 2 to 5: a writer that finds a higher number
        // committed before its own is renumbered above it (see `commitVersion`), and the
        // number it gave up stays unused.
        let numbers = versions.values.sorted()
        #expect(Set(numbers).count == writers && numbers.allSatisfy { $0 > 1 }, "\(versions)")
        #expect(try zinc("list", "--catalog", catalog) == "B \([1] + numbers)\n")
        for (n, version) in versions {
            let manifest = try zinc("dump_manifest", "--catalog", catalog, "--name", "B", "--version", String(version))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
            let files = try #require(object["files"] as? [String: [String: Any]])
            #expect(
                files.keys.sorted() == [
                    "Basic Adjectives.js", "audio/basic-adj-11.caf", "own-\(n).json", "photos/\(n).jpg",
                    "photos/85x85/kind.jpg",
                ], "version \(version) of writer \(n)")
            #expect(files["own-\(n).json"]?["sha"] as? String == sha1Hex(SampleContent.text(2000 + n, word: "writer\(n)")))
            #expect(object["version"] as? Int == version)
        }
        #expect(try zinc("verify", "--catalog", catalog) == "Verified 1 bundle, 5 versions, 11 objects, 5 archives: no problems\n")
        #expect(
            try keys().filter { $0.hasPrefix("manifests/") && $0.hasSuffix(".json") }
                == ([1] + numbers).map { "manifests/B-\($0).json" }.sorted())
    }

    /// `clean --force` beside a running import: the import re-stores or keeps the
    /// objects clean found unreferenced, so nothing the new version names is removed,
    /// whichever of them takes the lock first.
    @Test func cleanBesideARunningImportRemovesNothingItReferences() throws {
        try zinc("create_catalog", "--id", "com.example.clean", "--dest", catalog)
        try SampleContent.mixedTree(in: dir, at: "big")
        try dir.write("small/one.json", SampleContent.text(100))
        try zinc("update_bundle", "--catalog", catalog, "--name", "B", "--source", "big")
        try zinc("update_bundle", "--catalog", catalog, "--name", "B", "--source", "small")
        // Clean first, then the import first: each may hold the lock while the other waits.
        for (round, delays) in [(clean: 0.0, importing: 0.5), (clean: 0.5, importing: 0.0)].enumerated() {
            // The big tree's objects are garbage now; the import below uses them again.
            try zinc("delete_bundle", "--catalog", catalog, "--name", "B", "--versions", String(1 + 2 * round))
            let results = ResultLog()
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                Thread.sleep(forTimeInterval: lane == 0 ? delays.importing : delays.clean)
                let arguments =
                    lane == 0
                    ? ["update_bundle", "--catalog", catalog, "--name", "B", "--source", "big"]
                    : ["clean", "--catalog", catalog, "--force", "--grace", "0", "--quiet"]
                results.add(lane, Result { try zinc.run(arguments) })
            }
            for (lane, result) in results.all {
                let output = try result.get()
                #expect(output.status == 0, "round \(round), \(lane == 0 ? "import" : "clean"): \(output.stderr)")
            }
            #expect(try zinc("list", "--catalog", catalog) == "B [\(2 * round + 2), \(2 * round + 3)]\n")
            #expect(try zinc("verify", "--catalog", catalog).hasSuffix(": no problems\n"))
            // The new version's files are all there, read back byte for byte.
            try? FileManager.default.removeItem(atPath: dir.at("out"))
            try zinc("clone_bundle", "--catalog", catalog, "--name", "B", "--version", String(2 * round + 3), "--dest", "out")
            #expect(try dir.catalogContent("out/com.example.clean.B-\(2 * round + 3)") == dir.catalogContent("big"))
            if round == 0 {  // back to [big, small] for the next round: [3, 4]
                try zinc("delete_bundle", "--catalog", catalog, "--name", "B", "--versions", "2")
                try zinc("update_bundle", "--catalog", catalog, "--name", "B", "--source", "small")
            }
        }
    }

    /// A client syncs from the bucket over plain HTTP, as from a CDN in front of it.
    @Test func aClientSyncsFromAPublicBucketOverHTTP() throws {
        let bucket = try server.makeBucket(publicRead: true)
        let catalog = "s3://\(bucket)/french"
        let source = try SampleContent.basicAdjectives(in: dir, at: "French/BasicAdjectives")
        try zinc("create_catalog", "--id", "com.mindsnacks.french", "--dest", catalog)
        try zinc("update_bundle", "--catalog", catalog, "--name", "BasicAdjectives", "--source", source)
        try zinc("update_distro", "--catalog", catalog, "--id", "BasicAdjectives", "--name", "master", "--version", "1")

        // The client gets no credentials: the bucket's policy lets anyone read.
        let anonymous = ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""]
        let url = server.url(bucket: bucket, prefix: "french")
        try zinc(["repo_init", "--repo", "repo"], environment: anonymous)
        #expect(
            try zinc(
                ["track", "--repo", "repo", "--catalog", url, "--bundle", "BasicAdjectives", "--distro", "master"],
                environment: anonymous) == "Tracking 'BasicAdjectives' of com.mindsnacks.french at distribution 'master'\n")
        #expect(
            try zinc(["sync", "--repo", "repo"], environment: anonymous).hasPrefix("com.mindsnacks.french.BasicAdjectives: none -> 1 ("))
        #expect(
            try dir.catalogContent("repo/bundles/com.mindsnacks.french.BasicAdjectives-1") == dir.catalogContent("French/BasicAdjectives"))
        #expect(
            try zinc(["sync", "--repo", "repo"], environment: anonymous)
                == "com.mindsnacks.french.BasicAdjectives: up to date at version 1\n")

        try dir.write("French/BasicAdjectives/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        try zinc("update_bundle", "--catalog", catalog, "--name", "BasicAdjectives", "--source", source)
        try zinc("update_distro", "--catalog", catalog, "--id", "BasicAdjectives", "--name", "master", "--version", "latest")
        #expect(try zinc(["sync", "--repo", "repo"], environment: anonymous).hasPrefix("com.mindsnacks.french.BasicAdjectives: 1 -> 2 ("))
        #expect(
            try dir.catalogContent("repo/bundles/com.mindsnacks.french.BasicAdjectives-2") == dir.catalogContent("French/BasicAdjectives"))
        // Version 1's folder stays as the bundle's spare.
        #expect(dir.exists("repo/bundles/com.mindsnacks.french.BasicAdjectives-1"))
    }

    /// What a user reads when the bucket, the catalog or the credentials are wrong: one
    /// line naming the place and S3's reason, never the secret.
    @Test func errorsNameTheBucketAndS3sReason() throws {
        let missing = "zinc-missing-" + UUID().uuidString.lowercased().prefix(8)
        let noBucket = try zinc.run(["list", "--catalog", "s3://\(missing)/cat"])
        #expect(noBucket.status == 1 && noBucket.stdout == "")
        #expect(noBucket.stderr.hasPrefix("zinc: error: s3://\(missing)/cat: GET "), "\(noBucket.stderr)")
        #expect(noBucket.stderr.contains(".json: NoSuchBucket (The specified bucket does not exist), HTTP 404\n"), "\(noBucket.stderr)")

        let noCatalog = try zinc.run(["list", "--catalog", "s3://\(bucket)/nothing-here"])
        #expect(noCatalog.status == 1)
        #expect(noCatalog.stderr == "zinc: error: no catalog at 's3://\(bucket)/nothing-here'\n", "\(noCatalog.stderr)")

        let badName = try zinc.run(["list", "--catalog", "s3://Bad_Bucket/cat"])
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("'Bad_Bucket'") && badName.stderr.contains("is not a bucket name"), "\(badName.stderr)")

        let refused = try zinc.run(["list", "--catalog", catalog, "--endpoint-url", "ftp://127.0.0.1"])
        #expect(
            refused.status == 1 && refused.stderr.contains("the endpoint 'ftp://127.0.0.1' is not an http:// or https:// URL"),
            "\(refused.stderr)")

        let secret = "Zinc+Never/Prints+This+Secret0123456789"
        let authenticating = try MotoServer.sharedEnforcingAuthentication()
        let wrong = try zinc.run(
            ["list", "--catalog", catalog],
            environment: authenticating.environment.merging([
                "AWS_ACCESS_KEY_ID": "AKIAZINCTESTWRONGKEY",
                "AWS_SECRET_ACCESS_KEY": secret,
            ]) { $1 })
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasPrefix("zinc: error: \(catalog): GET "), "\(wrong.stderr)")
        #expect(wrong.stderr.contains(".json: InvalidAccessKeyId ("), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains(secret) && !wrong.stdout.contains(secret))
    }
}

/// Results from concurrent lanes, by lane.
final class ResultLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [(Int, Result<ZincBinary.Result, Error>)]()
    func add(_ lane: Int, _ result: Result<ZincBinary.Result, Error>) { lock.withLock { list.append((lane, result)) } }
    var all: [(Int, Result<ZincBinary.Result, Error>)] { lock.withLock { list.sorted { $0.0 < $1.0 } } }
}
