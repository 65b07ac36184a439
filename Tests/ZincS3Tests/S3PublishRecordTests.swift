import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `zinc publish` to a bucket records, in the bucket, when its index dropped a version's
/// files, so that one `--delete` run after the grace period removes them; and a Ctrl-C
/// during an import into a bucket leaves no lock object for `clean` to wait on.
@Suite struct S3PublishRecordTests {
    let server: MotoServer
    let bucket: String
    let dir: TemporaryDirectory

    init() throws {
        server = try MotoServer.shared()
        bucket = try server.makeBucket()
        dir = try TemporaryDirectory()
        _ = try S3PublishTests.twoVersionsOfB(id: "com.example.record", in: dir)
        // Archives of every version, as the records below name an unnamed version's.
        try dir.zinc.succeeds(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
    }

    private var zinc: ZincRunner { ZincRunner(in: dir, environment: server.environment, silentStderr: false) }

    @Test func oneDeleteRunAfterTheGracePeriodRemovesWhatTheIndexDropped() throws {
        let destination = "s3://\(bucket)/cat"
        _ = try zinc(["publish", "--catalog", "cat", "--to", destination, "--quiet"])
        _ = try zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        _ = try zinc(["clean", "--catalog", "cat", "--force", "--grace", "0", "--quiet"])
        let dropped = try zinc(["publish", "--catalog", "cat", "--to", destination, "--quiet"])
        #expect(dropped.contains("Recorded that 6 files of versions the new index no longer lists left it now"), "\(dropped)")
        #expect(try server.keys(bucket: bucket, prefix: "cat/retired").count == 1)

        Thread.sleep(forTimeInterval: 2.2)
        let removed = try zinc(["publish", "--catalog", "cat", "--to", destination, "--delete", "--grace", "2", "--quiet", "--verbose"])
        #expect(removed.contains("  - archives/B-1.tar ("), "\(removed)")
        #expect(!removed.contains("Kept "), "\(removed)")
        let storage = try server.storage(bucket: bucket, prefix: "cat")
        #expect(try !storage.exists("manifests/B-1.json") && CatalogVerification(Catalog.open(storage)).run().problems.isEmpty)
    }

    @Test func anInterruptedImportLeavesNoLockObject() throws {
        for i in 0..<300 { try dir.write("big/f\(i).bin", SampleContent.noise(100_000, seed: UInt64(7 + i))) }
        let destination = "s3://\(bucket)/cat"
        _ = try zinc(["publish", "--catalog", "cat", "--to", destination, "--quiet"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ZincBinary.path)
        process.arguments = ["update_bundle", "--catalog", destination, "--name", "Big", "--source", "big", "--no-stat-cache"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
        process.environment = ZincBinary.environment(in: dir.path).merging(server.environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let before = try server.keys(bucket: bucket, prefix: "cat/objects").count
        let deadline = Date().addingTimeInterval(60)
        while try server.keys(bucket: bucket, prefix: "cat/objects").count < before + 10, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("no version of 'Big' was committed"), "\(stderr)")
        #expect(try server.keys(bucket: bucket, prefix: "cat/locks").isEmpty)
        // clean does not wait for the interrupted import's lock, and names its files for what they are.
        let report = try zinc(["clean", "--catalog", destination])
        #expect(report.contains("that no index ever listed"), "\(report)")
    }
}
