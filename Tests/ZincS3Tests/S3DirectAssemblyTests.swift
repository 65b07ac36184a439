import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincS3

/// Assembly in the bucket when a command writes to `s3://` directly (docs/PUBLISHING.md):
/// an import putting a large object whose chunks are mostly there, and `update_distro`
/// building a missing archive there, send only what is new; the bucket's files are byte
/// for byte those the same commands write in a local catalog; a service refusing part
/// copies gets whole uploads; nothing is left behind. And the hour rule for abandoned
/// uploads, on a clock the test moves. Of `S3AssemblyTests`, whose server and bucket they share.
extension S3AssemblyTests {
    private var catalogURL: String { "s3://\(bucket)/cat" }

    /// Runs zinc on the bucket (through `proxy` when given) and on the local catalog
    /// `local` alike; returns the bucket run's stderr.
    @discardableResult
    private func both(_ arguments: [String], through proxy: S3Proxy? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        var environment = server.environment
        if let proxy { environment["AWS_ENDPOINT_URL"] = proxy.url }
        var stderr = ""
        for target in [catalogURL, "local"] {
            let result = try dir.zinc.run(
                arguments.map { $0 == "CAT" ? target : $0 }, environment: target == "local" ? [:] : environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            if target != "local" { stderr = result.stderr }
        }
        return stderr
    }

    /// Version 1 of bundle B (a large file and 30 small ones) in both catalogs, `master` on it.
    private func firstDirectVersion() throws {
        try both(["create_catalog", "--id", "com.example.direct", "--dest", "CAT"])
        try dir.write("src/big.bin", SampleContent.noise(Self.bigSize, seed: 51))
        for i in 0..<30 { try dir.write("src/lessons/\(i).json", SampleContent.text(2000 + i)) }
        try both(["update_bundle", "--catalog", "CAT", "--name", "B", "--source", "src"])
        try both(["update_distro", "--catalog", "CAT", "--id", "B", "--name", "master", "--version", "latest"])
    }

    /// The tree of version 2: one byte of the large file flipped, one small file edited.
    private func secondTree() throws {
        var big = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.at("src/big.bin"))))
        big[8 << 20] ^= 0xFF
        try dir.write("src/big.bin", big)
        try dir.write("src/lessons/3.json", SampleContent.text(2100, word: "adverb"))
    }

    /// Every file of the local catalog's version 2 (objects, documents, archive) is in the
    /// bucket byte for byte, the bucket's catalog verifies, and no upload or temporary
    /// object is left.
    private func expectSameAsLocal() throws {
        let storage = try server.storage(bucket: bucket)
        let local = try Catalog.open(FileStorage(root: dir.at("local")))
        let manifest = try local.manifest(bundle: "B", version: 2)
        var paths = Set(VersionFiles(of: manifest).documents)
        paths.insert(Catalog.archivePath(bundle: "B", version: 2))
        for entry in manifest.files.values { paths.insert(entry.object.preferredPath) }
        for path in paths.sorted() where try local.storage.exists(path) {
            #expect(try storage.read(path) == local.storage.read(path), "\(path)")
        }
        #expect(try storage.exists(Catalog.archivePath(bundle: "B", version: 2)))
        #expect(try CatalogVerification(Catalog.open(storage)).run().problems.map(\.description) == [])
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    @Test func anImportAndUpdateDistroOnABucketAssembleFromItsBytesSendingOnlyWhatIsNew() throws {
        try firstDirectVersion()
        try secondTree()
        let proxy = try S3Proxy(to: server.port)
        defer { proxy.stop() }

        try both(["update_bundle", "--catalog", "CAT", "--name", "B", "--source", "src"], through: proxy)
        // The changed chunk of the large object (joined to the copied bytes before it in a
        // temporary object), the small file and the version's documents; not the 16 MiB object.
        let imported = proxy.bytesSent
        #expect(imported < 1 << 20, "the import sent \(imported)")

        try both(["update_distro", "--catalog", "CAT", "--id", "B", "--name", "master", "--version", "latest"], through: proxy)
        // The archive: its first part (it starts with new bytes), the rest copied from the
        // previous archive and the new large object.
        let promoted = proxy.bytesSent - imported
        #expect(promoted < 6 << 20 + 200_000, "update_distro sent \(promoted)")
        try expectSameAsLocal()
    }

    @Test func aServiceRefusingPartCopiesGetsWholeUploadsFromAnImportAndUpdateDistro() throws {
        try firstDirectVersion()
        try secondTree()
        let proxy = try S3Proxy(to: server.port, refusesCopies: true)
        defer { proxy.stop() }

        let imported = try both(["update_bundle", "--catalog", "CAT", "--name", "B", "--source", "src"], through: proxy)
        let moved = try both(
            ["update_distro", "--catalog", "CAT", "--id", "B", "--name", "master", "--version", "latest"], through: proxy)

        for stderr in [imported, moved] {
            let notices = stderr.components(separatedBy: "\n").filter { $0.contains("does not copy parts in the bucket") }
            #expect(notices.count == 1, "\(stderr)")
        }
        #expect(proxy.refusedCopies >= 2)
        #expect(proxy.bytesSent > 2 * Self.bigSize, "whole uploads: \(proxy.bytesSent)")
        try expectSameAsLocal()
    }

    /// A bucket storage whose clock reads `offset` after moto's date of `upload`.
    private func storage(at offset: TimeInterval, after upload: MultipartUpload) throws -> S3Storage {
        let base = try server.storage(bucket: bucket)
        let initiated = try #require(try MultipartUpload.all(in: base).first { $0.uploadID == upload.uploadID }).initiated
        return S3Storage(
            address: base.address, configuration: try server.configuration(), tuning: .standard, lockPolicy: .standard,
            clock: { initiated.addingTimeInterval(offset) })
    }

    @Test func publishAndCleanAbortAnAbandonedUploadOnlyOnceItIsAnHourOld() throws {
        let local = try Catalog.create(id: "com.example.hour", in: FileStorage(root: dir.at("local")))
        try dir.write("src/a.json", SampleContent.text(100))
        try dir.write("src/b.json", SampleContent.text(200))
        _ = try local.updateBundle("B", from: dir.at("src"))
        let base = try server.storage(bucket: bucket)
        let upload = try MultipartUpload.begin("objects/killed", headers: [:], in: base)
        _ = try upload.upload(part: 1, body: .bytes(SampleContent.noise(1000, seed: 1)), in: base)
        let open = { try MultipartUpload.all(in: base).map(\.uploadID) }

        // Begun half an hour ago: another writer's, perhaps still running.
        let halfAnHour = try storage(at: 1800, after: upload)
        _ = try CatalogPublish(local, to: halfAnHour).run()
        #expect(try open() == [upload.uploadID])
        _ = try CatalogClean(Catalog.open(halfAnHour), grace: .zero).run()
        #expect(try open() == [upload.uploadID])

        // Over an hour: abandoned. Clean discards it as every abandoned write ...
        _ = try CatalogClean(Catalog.open(storage(at: 3601, after: upload)), grace: .zero).run()
        #expect(try open() == [])
        // ... and so does the next publish.
        let again = try MultipartUpload.begin("objects/killed", headers: [:], in: base)
        _ = try again.upload(part: 1, body: .bytes(SampleContent.noise(1000, seed: 2)), in: base)
        _ = try CatalogPublish(local, to: storage(at: 3601, after: again)).run()
        #expect(try open() == [])
    }
}
