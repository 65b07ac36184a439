import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `CatalogPublish`: a copy whose readers never see a reference to something missing,
/// that skips what is there, and that never drops another writer's versions.
@Suite struct PublishTests {
    @Test func copiesEverythingThenSkipsWhatIsThere() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
        let destination = FileStorage(root: dir.at("live"))
        let first = try CatalogPublish(catalog, to: destination).run()
        #expect(first.performed && first.indexChanged && first.unchanged == 0)
        // Every file but the store's own bookkeeping, byte for byte.
        let copied = try dir.catalogContent("live")
        let original = try dir.catalogContent("cat").filter { !$0.key.hasPrefix("locks/") && !$0.key.hasPrefix("retired/") }
        #expect(copied == original)
        #expect(first.uploaded.count == original.count - 4)
        #expect(try CatalogVerification(Catalog.open(destination)).run().problems.isEmpty)

        let again = try CatalogPublish(catalog, to: destination).run()
        #expect(again.uploaded.isEmpty && !again.indexChanged && again.unchanged == first.uploaded.count)
    }

    @Test func writesInFormatOrderSoReadersNeverMissAFile() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = MemoryStorage()
        let order = Recorder()
        destination.beforeCommit = { path, _ in
            // At every moment, what the committed index lists is all there.
            order.append(path, complete: (try? Self.everyReferenceResolves(in: destination)) ?? false)
        }
        _ = try CatalogPublish(catalog, to: destination).run()
        let paths = order.paths
        let rank = { (path: String) -> Int in
            ["objects/", "archives/", "sizes/", "lmfo/", "manifest-chunks/", "manifests/", "config"].firstIndex { path.hasPrefix($0) } ?? 7
        }
        #expect(paths.map(rank) == paths.map(rank).sorted(), "\(paths)")
        #expect(paths.suffix(4).sorted() == CatalogIndex.fileNames.sorted())
        #expect(order.everyMomentComplete)
    }

    @Test func refusesToDropVersionsAnotherWriterAdded() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = FileStorage(root: dir.at("live"))
        _ = try CatalogPublish(catalog, to: destination).run()
        // Someone imports straight into the destination.
        try dir.write("other/new.txt", SampleContent.text(100))
        #expect(try Catalog.open(destination).updateBundle("B", from: dir.at("other")) == .created(version: 3))
        let before = try destination.read("catalog.json")
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
        #expect {
            _ = try CatalogPublish(catalog, to: destination).run()
        } throws: { error in
            "\(error)".contains("lists versions '\(dir.at("cat"))' never had (B v3)")
        }
        #expect(try destination.read("catalog.json") == before)

        // The source's own version 3 is another file under the same name: refused before any upload.
        try dir.write("src/more.txt", SampleContent.text(300))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let objects = try destination.list("objects")
        #expect {
            _ = try CatalogPublish(catalog, to: destination).run()
        } throws: { error in
            "\(error)".contains("B-3.json' differs from")
        }
        #expect(try destination.read("catalog.json") == before && destination.list("objects") == objects)
    }

    @Test func refusesAnotherCatalog() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        _ = try Catalog.create(id: "com.example.other", in: FileStorage(root: dir.at("live")))
        #expect {
            _ = try CatalogPublish(catalog, to: FileStorage(root: dir.at("live"))).run()
        } throws: { error in
            "\(error)".contains("is the catalog 'com.example.other', not 'com.example.app'")
        }
        #expect(dir.files(under: "live").allSatisfy { !$0.hasPrefix("objects/") })
    }

    @Test func deletedVersionsLeaveTheDestinationAfterTheGracePeriod() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = FileStorage(root: dir.at("live"))
        _ = try CatalogPublish(catalog, to: destination).run()
        _ = try VersionDeletion(catalog, bundle: "B", versions: [try VersionSelection("1")]).run()
        _ = try CatalogClean(catalog, grace: .zero).run()

        // Without --delete the index follows, the files stay.
        let kept = try CatalogPublish(catalog, to: destination).run()
        #expect(kept.indexChanged && kept.deleted.isEmpty)
        #expect(try Catalog.open(destination).index().bundles["B"]?.versions == [2])
        #expect(try destination.exists("archives/B-1.tar"))

        // Within the grace period a client may still hold the index listing version 1.
        let waiting = try CatalogPublish(catalog, to: destination, delete: true).run()
        #expect(waiting.deleted.isEmpty && waiting.waiting > 0 && waiting.waitingUntil != nil)
        #expect(try destination.exists("archives/B-1.tar"))

        let dryRun = try CatalogPublish(catalog, to: destination, delete: true, grace: .zero).plan().report
        #expect(!dryRun.performed && dryRun.deleted.map(\.path).contains("archives/B-1.tar"))
        #expect(try destination.exists("archives/B-1.tar"))

        let removed = try CatalogPublish(catalog, to: destination, delete: true, grace: .zero).run()
        #expect(removed.deleted.map(\.path).contains("archives/B-1.tar"))
        #expect(try !destination.exists("archives/B-1.tar") && !destination.exists("manifests/B-1.json"))
        #expect(try CatalogVerification(Catalog.open(destination)).run().problems.isEmpty)
        #expect(
            try dir.catalogContent("live").filter { !$0.key.hasPrefix("retired/") && !$0.key.hasPrefix("locks/") }
                == dir.catalogContent("cat").filter { !$0.key.hasPrefix("retired/") && !$0.key.hasPrefix("locks/") })
    }

    /// The dry run is the plan the run then carries out: the same uploads, index change,
    /// retired files and deletions, and nothing written while planning.
    @Test func thePlanIsWhatTheRunUploadsAndDeletes() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = FileStorage(root: dir.at("live"))
        _ = try CatalogPublish(catalog, to: destination).run()
        _ = try VersionDeletion(catalog, bundle: "B", versions: [try VersionSelection("1")]).run()
        _ = try CatalogClean(catalog, grace: .zero).run()
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
        let publish = CatalogPublish(catalog, to: destination, delete: true, grace: .zero)
        let before = dir.files(under: "live")
        let plan = try publish.plan()
        #expect(dir.files(under: "live") == before)
        #expect(plan.indexChanged && !plan.retired.isEmpty && plan.clean != nil)

        let dryRun = plan.report
        let report = try publish.run()
        #expect(!dryRun.performed && report.performed)
        #expect(report.uploaded == dryRun.uploaded && report.unchanged == dryRun.unchanged)
        #expect(report.indexChanged == dryRun.indexChanged && report.retired == dryRun.retired)
        #expect(report.deleted == dryRun.deleted && report.deleted.map(\.path).contains("archives/B-1.tar"))
        // The store's own bookkeeping (records, lock objects) is never reported.
        let removed = Set(before).subtracting(dir.files(under: "live")).filter { !$0.hasPrefix("retired/") && !$0.hasPrefix("locks/") }
        #expect(removed == Set(dryRun.deleted.map(\.path)))
    }

    /// The newest version deleted, then every version: each was numbered by the source
    /// (at most its `next_version`, the highest number handed out), so the index that
    /// no longer lists it replaces the destination's.
    @Test func theNewestOrEveryVersionDeletedIsPublished() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = FileStorage(root: dir.at("live"))
        _ = try CatalogPublish(catalog, to: destination).run()
        _ = try VersionDeletion(catalog, bundle: "B", versions: [try VersionSelection("2")]).run()
        #expect(try CatalogPublish(catalog, to: destination).run().indexChanged)
        #expect(try Catalog.open(destination).index().bundles["B"]?.versions == [1])
        _ = try VersionDeletion(catalog, bundle: "B", versions: [try VersionSelection("all")]).run()
        #expect(try CatalogPublish(catalog, to: destination).run().indexChanged)
        #expect(try Catalog.open(destination).index().bundles["B"]?.versions == [])
    }

    @Test func anInterruptedPublishResumes() throws {
        let dir = try TemporaryDirectory()
        let catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
        let destination = MemoryStorage()
        let commits = Recorder()
        let killed = DispatchSemaphore(value: 0)
        destination.beforeCommit = { path, _ in
            commits.append(path, complete: true)
            // The fourth upload's writer stops for good, as if killed: it never commits.
            if commits.paths.count == 4 { killed.wait() }
        }
        let thread = Thread { _ = try? CatalogPublish(catalog, to: destination, workers: 1).run() }
        thread.start()
        defer { killed.signal() }
        while commits.paths.count < 4 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try !destination.exists("catalog.json"))
        destination.beforeCommit = nil
        let total = try dir.catalogContent("cat").filter { !$0.key.hasPrefix("locks/") }.count - 4
        let resumed = try CatalogPublish(catalog, to: destination).run()
        #expect(resumed.uploaded.count == total - 3)
        #expect(try CatalogVerification(Catalog.open(destination)).run().problems.isEmpty)
    }

    private static func everyReferenceResolves(in storage: CatalogStorage) throws -> Bool {
        guard try storage.exists("catalog.json") else { return true }
        // The copies follow the commit point (a fresh destination lacks them for a moment);
        // everything else must be there.
        return try CatalogVerification(Catalog.open(storage)).run().problems.allSatisfy { CatalogIndex.fileNames.contains($0.path) }
    }
}

private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded = [String]()
    private var incomplete = false

    func append(_ path: String, complete: Bool) {
        lock.withLock {
            recorded.append(path)
            if !complete { incomplete = true }
        }
    }

    var paths: [String] { lock.withLock { recorded } }
    var everyMomentComplete: Bool { lock.withLock { !incomplete } }
}
