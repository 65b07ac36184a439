import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A plan is the run: the bytes a plan gives are the response bodies the sync following
/// it moves (index and manifests included, the plan having fetched and kept them), within
/// 1 % or 4 KiB, whichever is larger, in the cases that once missed it.
@Suite struct PlanAccuracyTests {
    /// The response bodies of every request of `report`: the catalogs' and the bundles'.
    static func moved(_ report: SyncReport) -> Int64 {
        report.catalogs.reduce(0) { $0 + $1.bytes } + report.bundles.reduce(0) { $0 + $1.bytes }
    }

    /// Plans with `strategy`, then syncs following the plan; expects the run to move what
    /// the plan said, and returns both.
    static func planThenRun(_ fixture: ClientFixture, _ strategy: FetchStrategy? = nil) throws -> (SyncPlan, SyncReport) {
        let engine = SyncEngine(repo: fixture.repo, options: fixture.options(strategy))
        let plan = try engine.plan()
        let report = try engine.sync(following: plan)
        #expect(!report.failed, "\(fixture.failure(report))")
        let moved = moved(report)
        #expect(abs(moved - plan.bytes) <= max(plan.bytes / 100, 4096), "planned \(plan.bytes), moved \(moved)")
        return (plan, report)
    }

    /// A file of the version in use, large enough to be chunked, changed by one byte
    /// through its link and found by `status`: its object is no seed of chunks, and the
    /// plan prices fetching it again, as the repair does.
    @Test func aRepairIsPlannedWithTheDamagedObjectsBytes() throws {
        let fixture = try ClientFixture()
        try fixture.dir.write("src/film.bin", SampleContent.noise(3_000_000, seed: 7))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(2)).run()
        try fixture.track()
        #expect(try !fixture.sync().failed)
        let path = fixture.dir.at(fixture.bundleFolder(2) + "/film.bin")
        #expect(chmod(path, 0o644) == 0)
        var bytes = try fixture.dir.read(fixture.bundleFolder(2) + "/film.bin")
        bytes[1_500_000] ^= 0xFF
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        #expect(try fixture.repo.status().first?.health?.damagedFiles == ["film.bin"])

        let (plan, report) = try Self.planThenRun(fixture)
        #expect(plan.bundles.first?.action == .repair && plan.bytes >= 3_000_000, "\(plan.bundles.first?.line ?? "")")
        #expect(report.bundles.first?.outcome == .repaired)
        #expect(try fixture.bundleMatchesSource(2))
    }

    /// An archive download cut short, then a sync by any strategy: the objects
    /// complete in the part are not fetched again, the plan prices only what remains, and
    /// no part is left behind.
    @Test(arguments: [FetchStrategy?.none, .objects, .archive, .lmfo])
    func aCutArchiveIsReusedWhateverTheNextStrategy(_ next: FetchStrategy?) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        // Into the second of the objects new in version 2, which lead the archive.
        let cut = 7000
        try fixture.cutArchive(after: cut)
        #expect(try fixture.sync(.archive).failed)
        let part = "repo/tmp/\(ClientFixture.catalogID).B-2.tar.part"
        #expect(fixture.dir.exists(part))
        fixture.server.override("archives/B-2.tar") { _ in nil }

        let (plan, report) = try Self.planThenRun(fixture, next)
        #expect(plan.bytes < Int64(archive.count - cut) + 4096, "\(plan.bundles.first?.line ?? "")")
        #expect(report.bundles.first?.outcome == .updated)
        #expect(try fixture.bundleMatchesSource(2))
        #expect(!fixture.dir.exists(part))
    }

    /// An update three versions ahead in a repo holding chunks: the plan counts the chunk
    /// list, which the sync fetches again, beside the download.
    @Test(arguments: [FetchStrategy?.none, .objects, .archive, .lmfo])
    func anUpdateOverSeveralVersionsMovesWhatWasPlanned(_ strategy: FetchStrategy?) throws {
        let fixture = try Self.fiveVersionsAheadOfTwo()
        let (plan, report) = try Self.planThenRun(fixture, strategy)
        // Exactly: every body of the run is known to the plan.
        #expect(plan.bytes == Self.moved(report), "\(plan.bundles.first?.line ?? "")")
        #expect(plan.bundles.first?.version == 5 && report.bundles.first?.version == 5)
        #expect(try fixture.bundleMatchesSource(5))
    }

    /// The plan reads the LMFO record to weigh the archive's prefix, then picks objects (on
    /// a link where requests cost nothing): the run it pins to objects reads the record
    /// too, as the plan counted it.
    @Test func aPlanThatWeighedTheRecordAndPickedObjectsMovesWhatWasPlanned() throws {
        let fixture = try Self.fiveVersionsAheadOfTwo()
        var options = fixture.options()
        options.costModel = CostModel(requestOverhead: 0, concurrency: options.concurrency)
        let engine = SyncEngine(repo: fixture.repo, options: options)
        let plan = try engine.plan()
        #expect(plan.bundles.first?.strategy == .objects, "\(plan.bundles.first?.line ?? "")")
        let report = try engine.sync(following: plan)
        #expect(plan.bytes == Self.moved(report), "\(plan.bundles.first?.line ?? "")")
        #expect(try fixture.bundleMatchesSource(5))
    }

    /// A repo at version 2, holding chunks, and versions 3 to 5 published, master at 5.
    static func fiveVersionsAheadOfTwo() throws -> ClientFixture {
        let fixture = try ClientFixture()
        // Large enough to be chunked: the repo then holds chunks, and a sync fetches chunk lists.
        try fixture.dir.write("src/film.bin", SampleContent.noise(Int(ContentChunker.threshold) + 1000, seed: 7))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(2)).run()
        try fixture.track()
        #expect(try !fixture.sync().failed)
        for version in 3...5 {
            try fixture.dir.write("src/photos/\(version).jpg", SampleContent.noise(7000, seed: UInt64(200 + version)))
            _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
            try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(version)).run()
        }
        return fixture
    }
}
