import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `clean`: what counts as garbage, what stays, and that it never races an import.
@Suite struct CleanTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    /// Pid numbers above the kernel's maximum (4194304) never belong to a process.
    static let deadPID = 2_000_000_000

    /// Bundle B: version 1 is the talk's three files, version 2 replaces the photo.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
    }

    func garbage(_ report: CleanReport) -> [String] {
        report.files.map { "\($0.path) \($0.size)" }
    }

    func size(_ relative: String) throws -> Int {
        try dir.read("cat/" + relative).count
    }

    @Test func aCatalogWithoutGarbageHasNothingToClean() throws {
        let before = dir.files(under: "cat")
        let report = try CatalogClean(catalog, grace: .zero).run()
        #expect(report.files.isEmpty && report.totalBytes == 0 && report.removed)
        #expect(dir.files(under: "cat") == before)
    }

    @Test func aDryRunListsWhatNoListedVersionUsesAndRemovesNothing() throws {
        let oldPhoto = try #require(try catalog.manifest(bundle: "B", version: 1).files["photos/85x85/kind.jpg"]).object
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        // What a writer killed before committing its index change leaves behind.
        try dir.write("cat/manifests/B-7.json", "{}")
        try dir.write("cat/manifests/B-7.json.gz", "x")
        try dir.write("cat/archives/B-7~phone.tar", [UInt8](repeating: 0, count: 1024))
        let stray = "objects/00/11/0011223344556677889900112233445566778899.gz"
        try dir.write("cat/" + stray, "zz")
        let expected = [
            "lmfo/B-1.json \(try size("lmfo/B-1.json"))", "manifests/B-1.json \(try size("manifests/B-1.json"))",
            "manifests/B-1.json.gz \(try size("manifests/B-1.json.gz"))",
            "manifests/B-7.json 2", "manifests/B-7.json.gz 1", "manifest-chunks/B-1.json.gz \(try size("manifest-chunks/B-1.json.gz"))",
            "sizes/B-1.json.gz \(try size("sizes/B-1.json.gz"))",
            "archives/B-1.tar \(try size("archives/B-1.tar"))",
            "archives/B-7~phone.tar 1024", "objects/00/11/0011223344556677889900112233445566778899.gz 2", "\(oldPhoto.preferredPath) 8640",
        ]

        let before = dir.files(under: "cat")
        let dryRun = try CatalogClean(catalog, grace: .zero).plan().report
        #expect(garbage(dryRun) == expected)
        #expect(!dryRun.removed && dryRun.totalBytes == expected.reduce(0) { $0 + Int64($1.split(separator: " ")[1])! })
        #expect(dir.files(under: "cat") == before)

        let forced = try CatalogClean(catalog, grace: .zero).run()
        #expect(garbage(forced) == expected && forced.removed)
        #expect(
            Set(before.filter { !$0.hasPrefix("retired/") }).subtracting(dir.files(under: "cat"))
                == Set(expected.map { String($0.split(separator: " ")[0]) }))
        #expect(dir.files(under: "cat/retired").isEmpty, "the record delete_bundle wrote is spent")
        #expect(try CatalogVerification(catalog).run().isOK)
        #expect(try CatalogClean(catalog, grace: .zero).plan().report.files.isEmpty)
    }

    /// A client may hold an index for its cache lifetime: what it lists stays that long
    /// after it left the index, whoever took it out, and objects count from the last
    /// retired manifest that named them.
    @Test func whatLeftTheIndexStaysForTheGracePeriod() throws {
        let grace = Duration.milliseconds(1500)
        let oldPhoto = try #require(try catalog.manifest(bundle: "B", version: 1).files["photos/85x85/kind.jpg"]).object.preferredPath
        let version1 = [
            "lmfo/B-1.json", "manifests/B-1.json", "manifests/B-1.json.gz", "manifest-chunks/B-1.json.gz", "sizes/B-1.json.gz",
            "archives/B-1.tar",
        ]
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        let first = try CatalogClean(catalog, grace: grace).run()
        #expect(first.files.isEmpty)
        #expect(first.waiting.map(\.path) == version1 + [oldPhoto])
        let until = try #require(first.waitingUntil)
        #expect(until > Date() && until < Date().addingTimeInterval(2))
        #expect((version1 + [oldPhoto]).allSatisfy { dir.exists("cat/" + $0) })

        // The old photo comes back in version 3, which is deleted at once: it left the index
        // again just now, whatever the first record says.
        try dir.write("src/photos/85x85/kind.jpg", try dir.read("cat/" + oldPhoto))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 3))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2), savePrevious: false).run()
        Thread.sleep(forTimeInterval: 1.0)
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(3))]).run()
        Thread.sleep(forTimeInterval: 0.7)
        let second = try CatalogClean(catalog, grace: grace).run()
        #expect(second.files.map(\.path) == version1, "version 1 has been out for the grace period")
        #expect(
            second.waiting.map(\.path) == [
                "lmfo/B-3.json", "manifests/B-3.json", "manifests/B-3.json.gz", "manifest-chunks/B-3.json.gz", "sizes/B-3.json.gz",
                "archives/B-3.tar", oldPhoto,
            ])
        #expect(dir.exists("cat/" + oldPhoto))

        Thread.sleep(forTimeInterval: 1.6)
        let third = try CatalogClean(catalog, grace: grace).run()
        #expect(
            third.files.map(\.path) == [
                "lmfo/B-3.json", "manifests/B-3.json", "manifests/B-3.json.gz", "manifest-chunks/B-3.json.gz", "sizes/B-3.json.gz",
                "archives/B-3.tar", oldPhoto,
            ])
        #expect(third.waiting.isEmpty && third.waitingUntil == nil)
        #expect(dir.files(under: "cat/retired").isEmpty, "every record is spent")
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func keepsEveryFormatAndArchiveAListedVersionNames() throws {
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- *.jpg", "+ *"]}"#.utf8), source: "spec")
        _ = try catalog.updateBundle("F", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec, includeMasterArchive: true))
        // An object another tool stored in both formats, both recorded by the manifest.
        try dir.write("src2/a.txt", SampleContent.text(5000))
        try dir.write("src2/b.txt", "b")
        let sha = sha1Hex(SampleContent.text(5000))
        let raw = "objects/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha)"
        try dir.write("cat/" + raw, SampleContent.text(5000))
        try dir.write("cat/" + raw + ".gz", GzipCompressor.compress(SampleContent.text(5000)))
        _ = try catalog.updateBundle("Both", from: dir.at("src2"))
        #expect(try catalog.manifest(bundle: "Both", version: 1).files["a.txt"]?.object.formats.keys.sorted() == [.gz, .raw])
        #expect(try CatalogClean(catalog, grace: .zero).run().files.isEmpty)
        #expect(dir.exists("cat/archives/F-1.tar") && dir.exists("cat/archives/F-1~phone.tar"))
        #expect(dir.exists("cat/" + raw) && dir.exists("cat/" + raw + ".gz"))
    }

    @Test func removesOnlyTemporaryFilesWhoseWriterIsGoneOrThatAreOld() throws {
        let ownPID = ProcessInfo.processInfo.processIdentifier
        let dead = [".catalog.json.tmp-\(Self.deadPID)-1", "objects/ab/cd/.abcd.tmp-\(Self.deadPID)-77"]
        let old = "archives/.B-3.tar.tmp-\(ownPID)-3"
        let live = "manifests/.B-3.json.tmp-\(ownPID)-2"
        for path in dead + [old, live, "objects/.keep", "objects/ab/.x.tmp-notapid-1"] { try dir.write("cat/" + path, "t") }
        // Well past the hour: a clock stepped back by a few seconds (a VM's, as CI saw once)
        // must not make it young again.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: dir.at("cat/" + old))

        let report = try CatalogClean(catalog, grace: .zero).run()
        #expect(report.files.map(\.path) == [".catalog.json.tmp-\(Self.deadPID)-1", old, "objects/ab/cd/.abcd.tmp-\(Self.deadPID)-77"])
        #expect(dir.exists("cat/" + live) && dir.exists("cat/objects/.keep") && dir.exists("cat/objects/ab/.x.tmp-notapid-1"))
        #expect(!dir.exists("cat/" + old) && !dir.exists("cat/" + dead[0]))
    }

    @Test func removesNothingWhileAListedManifestIsUnreadable() throws {
        try dir.write("cat/objects/00/11/0011223344556677889900112233445566778899", "zz")
        for name in ["B-1.json", "B-1.json.gz"] { try FileManager.default.removeItem(atPath: dir.at("cat/manifests/" + name)) }
        let before = dir.files(under: "cat")
        #expect(
            throws: ZincError.integrity(
                path: dir.at("cat/manifests/B-1.json"),
                reason: "bundle 'B' has no version 1 (its manifest is missing); clean removed nothing (run verify)")
        ) {
            try CatalogClean(catalog, grace: .zero).run()
        }
        #expect(dir.files(under: "cat") == before)
    }

    @Test func waitsForARunningImportBeforeDecidingWhatIsGarbage() throws {
        // An import has stored an object that no manifest names yet.
        let content = SampleContent.noise(5000, seed: 9)
        let source = try dir.write("pending.bin", content)
        let storage = catalog.storage
        let objects = catalog.objects
        let stored = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), cleaned = DispatchSemaphore(value: 0)
        let importer = Thread {
            _ = try? storage.withImportLock(exclusive: false) { _ in
                _ = try objects.store(localPath: source, sha: sha1Hex(content), stamp: FileStamp(of: PosixFile.open(source)))
                stored.signal()
                release.wait()
            }
        }
        importer.start()
        stored.wait()
        let catalog = self.catalog
        nonisolated(unsafe) var removed = [String]()
        let cleaner = Thread {
            removed = (try? CatalogClean(catalog, grace: .zero).run().files.map(\.path)) ?? ["clean failed"]
            cleaned.signal()
        }
        cleaner.start()
        #expect(cleaned.wait(timeout: .now() + 0.5) == .timedOut, "clean must wait for the import")
        let path = "cat/objects/\(sha1Hex(content).prefix(2))/\(sha1Hex(content).dropFirst(2).prefix(2))/\(sha1Hex(content))"
        #expect(dir.exists(path))
        release.signal()
        cleaned.wait()
        // This import never committed a manifest, so once it is over the object is garbage.
        #expect(removed == [String(path.dropFirst("cat/".count))])
    }

    @Test func reportsRemovalProgress() throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var steps = [MaintenanceProgress]()
        }
        let log = Log()
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        let report = try CatalogClean(catalog, grace: .zero).run { progress in log.lock.withLock { log.steps.append(progress) } }
        #expect(log.steps.map(\.completedItems) == Array(1...report.files.count))
        #expect(log.steps.allSatisfy { $0.phase == .removing && $0.totalItems == report.files.count && $0.totalBytes == report.totalBytes })
        #expect(log.steps.last?.completedBytes == report.totalBytes)
    }
}
