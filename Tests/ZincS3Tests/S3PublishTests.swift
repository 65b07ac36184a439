import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `zinc publish` to a bucket, through the built binary: a reader of the bucket never
/// finds a reference to something missing, and a publish killed halfway resumes.
@Suite struct S3PublishTests {
    let server: MotoServer
    let bucket: String
    let dir: TemporaryDirectory

    init() throws {
        server = try MotoServer.shared()
        bucket = try server.makeBucket()
        dir = try TemporaryDirectory()
        let catalog = try Self.twoVersionsOfB(id: "com.example.publish", in: dir)
        _ = try catalog.updateBundle("C", from: dir.at("src/photos"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
    }

    /// A catalog `cat` in `dir` holding two versions of bundle B, a file apart, from `src`.
    static func twoVersionsOfB(id: String, in dir: TemporaryDirectory) throws -> Catalog {
        let catalog = try Catalog.create(id: id, in: FileStorage(root: dir.at("cat")))
        try SampleContent.mixedTree(in: dir)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/lessons/extra.json", SampleContent.text(4000))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        return catalog
    }

    /// Everything the bucket's index lists can be fetched; the three copies may lag
    /// behind `catalog.json` for a moment, never ahead of what is there.
    static func everyReferenceResolves(_ storage: CatalogStorage) throws -> [String] {
        guard try storage.exists("catalog.json") else { return [] }
        return try CatalogVerification(Catalog.open(storage)).run().problems.filter { !CatalogIndex.fileNames.contains($0.path) }.map(
            \.description)
    }

    @Test func aReaderPollingTheBucketNeverMissesAFile() throws {
        let storage = try server.storage(bucket: bucket)
        let publish = try ZincBinary.start(
            ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--jobs", "4"],
            in: dir.path, extraEnvironment: server.environment)
        var polls = 0
        while publish.isRunning {
            let problems = try Self.everyReferenceResolves(storage)
            #expect(problems.isEmpty, "poll \(polls)")
            polls += 1
        }
        publish.waitUntilExit()
        #expect(publish.terminationStatus == 0)
        #expect(try Self.everyReferenceResolves(storage).isEmpty && storage.exists("catalog.json"))
        #expect(polls > 1, "the reader looked while the publish ran")
    }

    @Test func aPublishKilledHalfwayUploadsOnlyTheRestWhenRunAgain() throws {
        let storage = try server.storage(bucket: bucket)
        let total = dir.files(under: "cat").filter { !$0.hasPrefix("locks/") && !$0.hasPrefix("retired/") }.count - 4
        let publish = try ZincBinary.start(
            ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--jobs", "1"],
            in: dir.path, extraEnvironment: server.environment)
        while publish.isRunning, try server.keys(bucket: bucket, prefix: "cat").count < 10 { Thread.sleep(forTimeInterval: 0.005) }
        kill(publish.processIdentifier, SIGKILL)
        publish.waitUntilExit()
        // A PUT whose body reached the server before the kill may still be stored after
        // it: count once the count holds still.
        var uploaded = try server.keys(bucket: bucket, prefix: "cat").count
        while true {
            Thread.sleep(forTimeInterval: 0.2)
            let now = try server.keys(bucket: bucket, prefix: "cat").count
            if now == uploaded { break }
            uploaded = now
        }
        #expect(try !storage.exists("catalog.json"), "the index goes last")
        #expect(uploaded >= 10 && uploaded < total)

        let rerun = try dir.zinc.succeeds(
            ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--json"], environment: server.environment)
        #expect(
            rerun.stdout.contains("\"unchanged\" : \(uploaded)") || rerun.stdout.contains("\"unchanged\": \(uploaded)"), "\(rerun.stdout)")
        #expect(try Self.everyReferenceResolves(storage).isEmpty)
        #expect(try CatalogVerification(Catalog.open(storage)).run().problems.isEmpty)
    }
}
