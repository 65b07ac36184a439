import Foundation
import Testing
import Zinc
import ZincS3
import ZincTestSupport

/// `StorageConformanceSuite` on a real S3 API server (moto's): the checks the local and
/// in-memory backends pass, racing conditional writers and concurrent imports included.
/// Each check gets a bucket of its own, and each storage the check makes a prefix of
/// its own in it. S3's versions are ETags, digests of the bytes: the suite reads that
/// from `versionTracking` and checks that an identical rewrite keeps the version.
@Suite struct S3ConformanceTests {
    /// Short enough for a test to wait out, as the in-memory backend's; retries spaced
    /// so that waiting imports do not flood the server with listings.
    static let lockPolicy = LockPolicy(
        staleAfter: .seconds(5), refreshEvery: .milliseconds(500),
        retryEvery: .milliseconds(50), waitAtMost: .seconds(60))

    /// Files above 6 MiB go up in parts of 5 MiB (S3's smallest part).
    static let inParts = S3Tuning.standard.with(multipartThreshold: 6 << 20, partSize: 5 << 20)

    static func factory(_ server: MotoServer, tuning: S3Tuning = .standard) throws -> StorageConformanceSuite.Factory {
        let bucket = try server.makeBucket()
        return { try server.storage(bucket: bucket, prefix: "c-" + UUID().uuidString, tuning: tuning, lockPolicy: Self.lockPolicy) }
    }

    @Test(arguments: StorageConformanceSuite.checkNames)
    func conformance(_ check: String) throws {
        try StorageConformanceSuite.run(check, Self.factory(try MotoServer.shared()))
    }

    /// The same checks with the small multipart threshold: none of the suite's files
    /// reaches it, so this shows the tuning changes nothing for small files; the large
    /// ones are `largeFilesGoUpInParts`.
    @Test(arguments: [
        "writes, reads, lists and deletes", "honours write conditions", "a discarded or abandoned writer leaves nothing",
        "assembles large and small pieces on 1 and 3 threads",
    ])
    func conformanceWithASmallMultipartThreshold(_ check: String) throws {
        try StorageConformanceSuite.run(check, Self.factory(try MotoServer.shared(), tuning: Self.inParts))
    }

    /// Files above the threshold, written, assembled and conditionally committed as
    /// multipart uploads: whole, byte for byte, with the conditions of a single PUT.
    @Test func largeFilesGoUpInParts() throws {
        let server = try MotoServer.shared()
        let storage = try Self.factory(server, tuning: Self.inParts)()
        let large = SampleContent.noise(11 << 20, seed: 5)  // three parts: 5, 5 and 1 MiB
        #expect(try storage.write(large, to: "archives/B-1.tar", .ifAbsent) == .written)
        #expect(try storage.read("archives/B-1.tar") == large)
        #expect(try storage.size(of: "archives/B-1.tar") == Int64(large.count))
        let versioned = try #require(try storage.readVersioned("archives/B-1.tar"))
        #expect(versioned.version.token.hasSuffix("-3\""), "a multipart ETag names its parts: \(versioned.version.token)")
        // Its ETag is no MD5 of the content, so it gives no fingerprint.
        #expect(try storage.entries(in: "archives").map(\.fingerprint) == [nil])

        // Create-only and compare-and-swap hold for uploads in parts too (9 MiB: more than
        // a writer holds in memory, so spooled and sent in two parts).
        #expect(try storage.write(SampleContent.noise(9 << 20, seed: 6), to: "archives/B-1.tar", .ifAbsent) == .conditionFailed)
        let replacement = SampleContent.noise(9 << 20, seed: 7)
        #expect(try storage.write(replacement, to: "archives/B-1.tar", .ifMatch(versioned.version)) == .written)
        #expect(try storage.read("archives/B-1.tar") == replacement)
        let replaced = try #require(try storage.readVersioned("archives/B-1.tar")).version
        #expect(replaced != versioned.version && replaced.token.hasSuffix("-2\""))
        // A failed condition leaves no upload behind.
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
        // moto checks If-None-Match on the completion of an upload but not If-Match (AWS
        // checks both): a stale swap in parts succeeds there.
        withKnownIssue("moto ignores If-Match on CompleteMultipartUpload", isIntermittent: true) { () throws -> Void in
            #expect(try storage.write(large, to: "archives/B-1.tar", .ifMatch(versioned.version)) == .conditionFailed)
            #expect(try storage.read("archives/B-1.tar") == replacement)
        }

        // Assembled from stored pieces, above the threshold.
        try storage.write(Array(large[..<(4 << 20)]), to: "objects/aa/bb/first")
        try storage.write(Array(large[(4 << 20)...]), to: "objects/aa/bb/second")
        let writer = try storage.makeWriter(for: "archives/B-2.tar")
        try writer.append(
            pieces: [
                .storedFile(path: "objects/aa/bb/first", size: 4 << 20), .bytes([1, 2, 3]),
                .storedFile(path: "objects/aa/bb/second", size: Int64(large.count - (4 << 20))),
            ], workers: 3)
        #expect(try writer.commit(.ifAbsent) == .written)
        var expected = Array(large[..<(4 << 20)])
        expected += [1, 2, 3]
        expected += large[(4 << 20)...]
        #expect(try storage.read("archives/B-2.tar") == expected)

        // Streamed back in ranges (S3Reader reads 8 MiB at a time).
        var streamed = [UInt8]()
        try #require(try storage.openForReading("archives/B-2.tar")).forEachChunk(chunkSize: 1 << 20) { streamed += $0 }
        #expect(streamed == expected)
    }

    /// Whole catalog operations on S3, as `StorageConformanceTests` runs them on memory:
    /// the files are the bytes a local catalog holds.
    @Test func catalogOperationsMatchALocalCatalog() throws {
        let server = try MotoServer.shared()
        let storage = try Self.factory(server)()
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        let remote = try Catalog.create(id: "com.example.s3", in: storage)
        let local = try Catalog.create(id: "com.example.s3", in: FileStorage(root: dir.at("cat")))
        for catalog in [remote, local] {
            #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 1))
        }
        try dir.write("src/extra.json", SampleContent.text(5000))
        for catalog in [remote, local] {
            #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 2))
            #expect(try catalog.updateBundle("B", from: dir.at("src")) == .unchanged(version: 2))
            #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run() == .created(version: 2))
        }
        let localFiles = dir.files(under: "cat").filter { !$0.hasPrefix(".") && !$0.hasPrefix("retired/") }
        #expect(try storage.list("").filter { !$0.hasPrefix("locks/") && !$0.hasPrefix("retired/") } == localFiles)
        for path in localFiles {
            #expect(try storage.read(path) == dir.read("cat/" + path), "\(path) differs")
        }
        #expect(try CatalogVerification(remote).run().problems.isEmpty)
    }
}
