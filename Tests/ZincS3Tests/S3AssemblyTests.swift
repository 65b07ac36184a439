import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincS3

/// Assembly in the bucket (docs/PUBLISHING.md): `zinc publish` puts a large object and
/// an archive whose bytes are mostly in the bucket together there, sending only what is
/// new; a service that refuses part copies gets whole uploads; nothing is left behind.
@Suite struct S3AssemblyTests {
    let server: MotoServer
    let bucket: String
    let dir: TemporaryDirectory

    /// Incompressible, so stored raw, and larger than three of S3's smallest parts.
    static let bigSize = 16 << 20

    init() throws {
        server = try MotoServer.shared()
        bucket = try server.makeBucket()
        dir = try TemporaryDirectory()
    }

    /// Version 1 of bundle B (a large file and 30 small ones), `master` on it.
    private func firstVersion() throws -> Catalog {
        let catalog = try Catalog.create(id: "com.example.assembly", in: FileStorage(root: dir.at("cat")))
        try dir.write("src/big.bin", SampleContent.noise(Self.bigSize, seed: 51))
        for i in 0..<30 { try dir.write("src/lessons/\(i).json", SampleContent.text(2000 + i)) }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
        return catalog
    }

    /// Version 2: one byte of the large file flipped, one small file edited; `master` on it.
    private func secondVersion(of catalog: Catalog) throws {
        var big = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.at("src/big.bin"))))
        big[8 << 20] ^= 0xFF
        try dir.write("src/big.bin", big)
        try dir.write("src/lessons/3.json", SampleContent.text(2100, word: "adverb"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
    }

    private func publish(_ extra: [String] = [], through proxy: S3Proxy? = nil) throws -> (json: [String: Any], stderr: String) {
        var environment = server.environment
        if let proxy { environment["AWS_ENDPOINT_URL"] = proxy.url }
        let result = try ZincRunner(in: dir, silentStderr: false).succeeds(
            ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--json"] + extra, environment: environment)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return (json, result.stderr)
    }

    private static func figures(_ json: [String: Any], _ key: String) -> (files: Int, bytes: Int) {
        let object = json[key] as? [String: Any] ?? [:]
        return (object["files"] as? Int ?? -1, object["bytes"] as? Int ?? -1)
    }

    /// The files of version 2 a publish uploads, with their sizes.
    private func newFiles(of catalog: Catalog) throws -> [String: Int64] {
        let manifest = try catalog.manifest(bundle: "B", version: 2)
        var files = [String: Int64]()
        for entry in manifest.files.values { files[entry.object.preferredPath] = entry.object.preferredSize }
        files["archives/B-2.tar"] = try catalog.storage.size(of: "archives/B-2.tar")
        return files
    }

    /// Every file of version 2 is at the destination byte for byte, the bucket's catalog
    /// verifies, and no upload or temporary object is left.
    private func expectPublished(_ catalog: Catalog, files: [String: Int64]) throws {
        let storage = try server.storage(bucket: bucket)
        for path in files.keys.sorted() {
            #expect(try storage.read(path) == catalog.storage.read(path), "\(path)")
        }
        #expect(try CatalogVerification(Catalog.open(storage)).run().problems.map(\.description) == [])
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    @Test func aLargeFileAndTheArchiveAreAssembledFromTheBucketSendingOnlyWhatIsNew() throws {
        let catalog = try firstVersion()
        _ = try publish()
        try secondVersion(of: catalog)
        let files = try newFiles(of: catalog)
        let big = try #require(files.first { $0.value >= Int64(Self.bigSize) && $0.key.hasPrefix("objects/") })
        let proxy = try S3Proxy(to: server.port)
        defer { proxy.stop() }

        let planned = try publish(["--dry-run"]).json
        let text = try dir.zinc.run(
            ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--dry-run"], environment: server.environment)
        #expect(text.stdout.contains("Would assemble 2 of them there, copying "), "\(text.stdout)")
        let run = try publish(through: proxy).json

        // The large object sends its changed chunk, the archive its first part (5 MiB,
        // S3's smallest: it starts with new bytes); the rest is copied in the bucket.
        let (copiedFiles, copied) = Self.figures(run, "copied")
        let (_, sent) = Self.figures(run, "uploaded")
        #expect(copiedFiles == 2)
        #expect(copied > 2 * Self.bigSize - (6 << 20), "copied \(copied)")
        #expect(sent < 6 << 20, "sent \(sent)")
        #expect(proxy.bytesSent < 6 << 20 + 200_000, "through the proxy: \(proxy.bytesSent)")
        #expect(Int64(sent + copied) >= big.value + files["archives/B-2.tar"]!)
        #expect(Self.figures(planned, "copied") == Self.figures(run, "copied"), "the dry run said so")
        #expect(Self.figures(planned, "uploaded") == Self.figures(run, "uploaded"))
        try expectPublished(catalog, files: files)
    }

    @Test func thePreviousArchiveCleanedLocallyIsFoundByItsVersionsLMFORecord() throws {
        let catalog = try firstVersion()
        _ = try publish()
        try secondVersion(of: catalog)
        // As a clean leaves it once no pointer names version 1 (here `_master` still does).
        try catalog.storage.delete("archives/B-1.tar")
        let files = try newFiles(of: catalog)

        let run = try publish().json

        #expect(Self.figures(run, "copied").files == 2)
        #expect(Self.figures(run, "uploaded").bytes < 6 << 20)
        try expectPublished(catalog, files: files)
    }

    @Test func aServiceRefusingPartCopiesGetsWholeUploadsAndOneNotice() throws {
        let catalog = try firstVersion()
        _ = try publish()
        try secondVersion(of: catalog)
        let files = try newFiles(of: catalog)
        let proxy = try S3Proxy(to: server.port, refusesCopies: true)
        defer { proxy.stop() }

        let (json, stderr) = try publish(through: proxy)

        let notices = stderr.components(separatedBy: "\n").filter { $0.contains("does not copy parts in the bucket") }
        #expect(notices.count == 1, "\(stderr)")
        #expect(notices.first?.contains("NotImplemented") == true)
        #expect(proxy.refusedCopies >= 1 && proxy.refusedCopies <= 4, "the refusal is found once, parts in flight aside")
        #expect(Self.figures(json, "copied") == (0, 0))
        #expect(Int64(Self.figures(json, "uploaded").bytes) >= files.values.reduce(0, +))
        try expectPublished(catalog, files: files)
    }

    @Test func aPartHoldingOtherBytesAbortsTheAssemblyAndLeavesNothing() throws {
        let storage = try server.storage(bucket: bucket)
        let old = SampleContent.noise(12 << 20, seed: 7)
        #expect(try storage.write(old, to: "objects/old", .ifAbsent) == .written)
        var new = old
        new[1 << 20] ^= 1  // inside the range the plan claims the bucket holds
        try dir.write("new", new)
        let file = try PosixFile.open(dir.at("new"))
        let plan = try #require(
            AssemblyPlan(
                path: "objects/new", size: Int64(new.count),
                copies: [CopiedRange(source: "objects/old", sourceOffset: 0, range: 0..<(10 << 20))], limits: .s3))

        let result = try storage.assemble(plan, from: file, condition: .ifAbsent)

        guard case .mismatch(let reason) = result else {
            Issue.record("assembled: \(result)")
            return
        }
        #expect(reason.contains("objects/new: part 1"))
        #expect(try storage.exists("objects/new") == false)
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    @Test func aCopySourceRemovedMeanwhileEndsTheAssemblyWithoutAFile() throws {
        let storage = try server.storage(bucket: bucket)
        let new = SampleContent.noise(12 << 20, seed: 10)
        try dir.write("new", new)
        let file = try PosixFile.open(dir.at("new"))
        let plan = try #require(
            AssemblyPlan(
                path: "objects/new", size: Int64(new.count),
                copies: [CopiedRange(source: "objects/gone", sourceOffset: 0, range: 0..<(10 << 20))], limits: .s3))

        let result = try storage.assemble(plan, from: file, condition: .ifAbsent)

        #expect(result == .mismatch("objects/new: part 1: objects/gone is no longer there"))
        #expect(try storage.exists("objects/new") == false)
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    @Test func aNewObjectAfterCopiedBytesGoesUpInATemporaryObjectThatIsRemoved() throws {
        let storage = try server.storage(bucket: bucket)
        let old = SampleContent.noise(12 << 20, seed: 8)
        #expect(try storage.write(old, to: "objects/old", .ifAbsent) == .written)
        let new = Array(old[0..<(6 << 20)]) + SampleContent.noise(1000, seed: 9) + Array(old[(6 << 20)...])
        try dir.write("new", new)
        let file = try PosixFile.open(dir.at("new"))
        let plan = try #require(
            AssemblyPlan(
                path: "objects/new", size: Int64(new.count),
                copies: [
                    CopiedRange(source: "objects/old", sourceOffset: 0, range: 0..<(6 << 20)),
                    CopiedRange(source: "objects/old", sourceOffset: 6 << 20, range: Int64((6 << 20) + 1000)..<Int64(new.count)),
                ], limits: .s3))
        #expect(plan.sentBytes == 1000)

        #expect(try storage.assemble(plan, from: file, condition: .ifAbsent) == .written)

        #expect(try storage.read("objects/new") == new)
        #expect(try server.keys(bucket: bucket, prefix: "cat/\(S3Storage.temporaryFolder)") == [])
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
        // Under its final name only if absent, as every immutable file.
        #expect(try storage.assemble(plan, from: file, condition: .ifAbsent) == .conditionFailed)
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    @Test func publishAbortsUploadsAbandonedForAnHourAndTemporaryObjectsAreAbandonedWrites() throws {
        _ = try firstVersion()
        let storage = try server.storage(bucket: bucket)
        // moto dates every upload 2010: over an hour old.
        let upload = try MultipartUpload.begin("objects/killed", headers: [:], in: storage)
        _ = try upload.upload(part: 1, body: .bytes(SampleContent.noise(1000, seed: 1)), in: storage)
        #expect(try storage.write([1, 2, 3], to: S3Storage.temporaryFolder + "/left", .always) == .written)
        let left = try storage.abandonedWrites(olderThan: .zero).map(\.displayPath).sorted()
        #expect(left == [S3Storage.temporaryFolder + "/left", upload.displayPath])

        _ = try publish()

        // The temporary object was written just now: it stays until it is an hour old,
        // when `clean` discards it as it discards every abandoned write.
        let temporaries = try storage.abandonedWrites(olderThan: .zero)
        #expect(temporaries.map(\.displayPath) == [S3Storage.temporaryFolder + "/left"])
        #expect(try storage.abandonedWrites(olderThan: CatalogClean.abandonedTemporaryAge) == [])
        for write in temporaries { try storage.discard(write) }
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }
}

/// The parts a plan makes, without a server.
@Suite struct AssemblyPlanTests {
    static let mib: Int64 = 1 << 20

    /// A plan for 30 MiB: bytes of `a` from `start` to 12 MiB, then 100 new bytes, then
    /// the rest of `a`.
    private static func plan(firstCopyFrom start: Int64) throws -> AssemblyPlan {
        try #require(
            AssemblyPlan(
                path: "p", size: 30 * mib,
                copies: [
                    CopiedRange(source: "a", sourceOffset: 0, range: start..<(12 * mib)),
                    CopiedRange(source: "a", sourceOffset: 12 * mib, range: (12 * mib + 100)..<(30 * mib)),
                ], limits: .s3))
    }

    @Test func newBytesAfterACopyJoinItsTailAndAStartSendsTheFirstPart() throws {
        let m = Self.mib
        let plan = try Self.plan(firstCopyFrom: 1000)
        #expect(
            plan.parts == [
                .send(0..<(5 * m)),
                .joined(CopiedRange(source: "a", sourceOffset: 5 * m - 1000, range: (5 * m)..<(12 * m)), (12 * m)..<(12 * m + 100)),
                .copy(CopiedRange(source: "a", sourceOffset: 12 * m, range: (12 * m + 100)..<(30 * m))),
            ])
        #expect(plan.sentBytes == 5 * m + 100)
        // A copy of twice the minimum or more keeps its head as a part of its own.
        let longer = try Self.plan(firstCopyFrom: 0)
        #expect(
            longer.parts == [
                .copy(CopiedRange(source: "a", sourceOffset: 0, range: 0..<(7 * m))),
                .joined(CopiedRange(source: "a", sourceOffset: 7 * m, range: (7 * m)..<(12 * m)), (12 * m)..<(12 * m + 100)),
                .copy(CopiedRange(source: "a", sourceOffset: 12 * m, range: (12 * m + 100)..<(30 * m))),
            ])
        #expect(longer.sentBytes == 100)
    }

    @Test func copiesTooShortToBePartsAreSentAndAPlanSendingMostIsNone() {
        let m = Self.mib
        #expect(
            AssemblyPlan(
                path: "p", size: 20 * m, copies: [CopiedRange(source: "a", sourceOffset: 0, range: 0..<(4 * m))], limits: .s3) == nil)
        #expect(
            AssemblyPlan(
                path: "p", size: 20 * m, copies: [CopiedRange(source: "a", sourceOffset: 0, range: (2 * m)..<(9 * m))], limits: .s3)
                == nil)
    }
}
