import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// Plans before downloads: what a plan says is what the sync that follows it moves, a
/// budget skips what would exceed it, and planning downloads no object.
@Suite struct SyncPlanTests {
    @Test(arguments: [FetchStrategy?.none, .objects, .archive, .lmfo])
    func aSyncFollowingAPlanMovesWhatItSaid(_ strategy: FetchStrategy?) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let engine = SyncEngine(repo: fixture.repo, options: fixture.options(strategy))
        let before = fixture.server.requests.count
        let plan = try engine.plan()
        let planned = try #require(plan.bundles.first)
        #expect(planned.action == .update && planned.currentVersion == 1 && planned.version == 2, "\(planned.line)")
        // Index and manifest only: no object, no archive.
        let asked = fixture.server.requests[before...].map(\.path)
        #expect(asked.allSatisfy { !$0.hasPrefix("objects/") && !$0.hasPrefix("archives/") }, "\(asked)")
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)

        let report = try engine.sync(following: plan)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated, "\(fixture.failure(report))")
        #expect(bundle.strategy == planned.strategy)
        #expect(
            abs(Double(bundle.objectBytes - planned.bytes)) <= 0.01 * Double(planned.bytes), "\(bundle.objectBytes) vs \(planned.bytes)")
        #expect(bundle.objectRequests == planned.requests)
        // The manifest was fetched by the plan: the sync asks for the objects only.
        #expect(bundle.requests == bundle.objectRequests)
        #expect(try fixture.bundleMatchesSource(2))
    }

    /// The plan's version is what is checked out, even if the distribution moved since.
    @Test func aPlanPinsTheVersionItApproved() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let engine = SyncEngine(repo: fixture.repo, options: fixture.options())
        let plan = try engine.plan()
        try fixture.dir.write("src/late.json", "{}")
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        let report = try engine.sync(following: plan)
        #expect(report.bundles.first?.version == 2 && report.bundles.first?.outcome == .updated)
        #expect(try engine.sync().bundles.first?.version == 3)
    }

    @Test func aBudgetSkipsAnUpdateThatWouldExceedIt() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        // One strategy: on loopback the measured link may tip the cost model either way between runs.
        var options = fixture.options(.lmfo)
        let planned = try #require(try SyncEngine(repo: fixture.repo, options: options).plan().bundles.first)
        options.maxBytes = planned.bytes - 1
        let skipped = try #require(try SyncEngine(repo: fixture.repo, options: options).sync().bundles.first)
        #expect(skipped.outcome == .skipped && skipped.plannedBytes == planned.bytes && skipped.objectBytes == 0)
        #expect(skipped.line.contains("skipped version 2"))
        #expect(try fixture.repo.loadState().bundles.first?.version == 1)
        #expect(fixture.dir.exists(fixture.bundleFolder(1)))
        options.maxBytes = planned.bytes
        #expect(try SyncEngine(repo: fixture.repo, options: options).sync().bundles.first?.outcome == .updated)
    }

    @Test func anUpToDateRepoPlansNothing() async throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let plan = try await fixture.repo.plan(options: fixture.options())
        #expect(plan.bundles.map(\.action) == [.upToDate] && plan.bytes == 0)
    }
}
