import Foundation
import Testing
import Zinc
import ZincClient
import ZincS3
import ZincTestSupport

/// A client repo tracking a catalog in a bucket (`track s3://BUCKET/PREFIX`): signed GETs
/// with the publisher's AWS configuration, anonymous ones without credentials, and
/// errors that name the URL.
@Suite struct S3TrackTests {
    let server: MotoServer
    let dir: TemporaryDirectory

    init() throws {
        server = try MotoServer.shared()
        dir = try TemporaryDirectory()
    }

    var zinc: ZincRunner { ZincRunner(in: dir, environment: server.environment, silentStderr: false) }

    /// A catalog with version 1 of `B` on `master`, published to `bucket` under `cat`.
    func publish(to bucket: String) throws -> String {
        try SampleContent.basicAdjectives(in: dir)
        let catalog = "s3://\(bucket)/cat"
        try zinc(["create_catalog", "--id", "com.example.s3", "--dest", catalog])
        try zinc(["update_bundle", "--catalog", catalog, "--name", "B", "--source", "src", "--quiet"])
        try zinc(["update_distro", "--catalog", catalog, "--id", "B", "--name", "master", "--version", "1"])
        return catalog
    }

    func sameFiles(_ folder: String) throws -> Bool {
        let files = dir.files(under: "src")
        guard !files.isEmpty, dir.files(under: folder) == files else { return false }
        return try files.allSatisfy { try dir.read("src/" + $0) == dir.read(folder + "/" + $0) }
    }

    @Test func aRepoSyncsFromAPrivateBucket() throws {
        let catalog = try publish(to: try server.makeBucket())
        try zinc(["repo_init", "--repo", "repo"])
        #expect(try zinc(["track", "--repo", "repo", "--catalog", catalog, "--bundle", "B"]).hasPrefix("Tracking 'B' of com.example.s3"))
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.s3.B: none -> 1 ("))
        #expect(try sameFiles("repo/bundles/com.example.s3.B-1"))

        try dir.write("src/more.txt", "new in version 2")
        try zinc(["update_bundle", "--catalog", catalog, "--name", "B", "--source", "src", "--quiet"])
        try zinc(["update_distro", "--catalog", catalog, "--id", "B", "--name", "master", "--version", "2"])
        let output = try zinc(["sync", "--repo", "repo", "--strategy", "objects", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let bundle = try #require((report["bundles"] as? [[String: Any]])?.first)
        #expect(bundle["outcome"] as? String == "updated" && bundle["missing_objects"] as? Int == 1, "\(bundle)")
        #expect(bundle["object_bytes"] as? Int == "new in version 2".utf8.count)
        #expect(try sameFiles("repo/bundles/com.example.s3.B-2"))
        // The link to the bucket is remembered for the next sync's plans, as a host's is.
        let links = LinkRecords.parse(try dir.read("repo/links.json"))
        #expect(
            links.hosts.keys.sorted() == [try #require(LinkRecords.host(of: catalog))] && links.hosts.keys.first?.hasPrefix("s3://") == true
        )
        #expect(try zinc(["untrack", "--repo", "repo", "--catalog", catalog, "--bundle", "B"]).hasPrefix("No longer tracking"))
    }

    /// No credentials anywhere: anonymous GETs, which a public bucket answers.
    @Test func aPublicBucketIsReadAnonymously() throws {
        let catalog = try publish(to: try server.makeBucket(publicRead: true))
        var anonymous = server.environment
        anonymous["AWS_ACCESS_KEY_ID"] = ""
        anonymous["AWS_SECRET_ACCESS_KEY"] = ""
        try zinc(["repo_init", "--repo", "repo"], environment: anonymous)
        try zinc(["track", "--repo", "repo", "--catalog", catalog, "--bundle", "B"], environment: anonymous)
        try zinc(["sync", "--repo", "repo"], environment: anonymous)
        #expect(try sameFiles("repo/bundles/com.example.s3.B-1"))

        // Unsigned indeed: the same requests of a private bucket are refused.
        let privateCatalog = try publish(to: try server.makeBucket())
        let refused = try zinc.run(["track", "--repo", "repo", "--catalog", privateCatalog, "--bundle", "B"], environment: anonymous)
        #expect(refused.status == 1 && refused.stderr.contains("HTTP 403"), "\(refused.stderr)")
    }

    @Test func aMissingBucketOrWrongKeyIsNamed() throws {
        try zinc(["repo_init", "--repo", "repo"])
        let missing = try zinc.run(["track", "--repo", "repo", "--catalog", "s3://zinc-no-such-bucket/cat", "--bundle", "B"])
        #expect(missing.status == 1 && missing.stderr.contains("s3://zinc-no-such-bucket/cat/catalog.json.gz"), "\(missing.stderr)")

        let authenticating = try MotoServer.sharedEnforcingAuthentication()
        let wrong = try zinc.run(
            ["track", "--repo", "repo", "--catalog", "s3://zinc-any-bucket/cat", "--bundle", "B"],
            environment: authenticating.environment.merging(["AWS_ACCESS_KEY_ID": "AKIAZINCTESTWRONGKEY"]) { $1 })
        #expect(wrong.status == 1 && wrong.stderr.contains("s3://zinc-any-bucket/cat/catalog.json.gz"), "\(wrong.stderr)")
        // S3's own reason, which tells a wrong key from a missing permission.
        #expect(wrong.stderr.contains("HTTP 403: InvalidAccessKeyId ("), "\(wrong.stderr)")
    }

    @Test func theSourceAnswersRangesOneAtATimeAndEtags() throws {
        let bucket = try server.makeBucket()
        _ = try publish(to: bucket)
        let source = try S3CatalogSource(url: "s3://\(bucket)/cat", configuration: server.configuration())
        let whole = try dir.write("whole", "")
        let file = try PosixFile.open(whole, flags: O_WRONLY)
        let first = try source.fetch(FetchRequest("catalog.json"), into: file)
        #expect(first.status == .content && first.etag != nil)
        let index = try dir.read("whole")
        let again = try source.fetch(FetchRequest("catalog.json", etag: first.etag), into: file)
        #expect(again.status == .notModified && again.written == 0)

        let parts = try PosixFile.open(try dir.write("parts", ""), flags: O_WRONLY)
        let ranged = try source.fetch(FetchRequest("catalog.json", ranges: [2..<10, 20..<30]), into: parts)
        #expect(ranged.rangeAnswer == .singlePart && ranged.written == 8)
        #expect(try dir.read("parts") == Array(index[2..<10]))
        let missing = try PosixFile.open(try dir.write("missing", ""), flags: O_WRONLY)
        #expect(throws: ClientError.notFound(url: "s3://\(bucket)/cat/nothing.json")) {
            try source.fetch(FetchRequest("nothing.json"), into: missing)
        }
    }
}
