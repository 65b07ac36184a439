import Testing
import Zinc

/// The choice among objects, archive and LMFO prefix, by the cost model.
@Suite struct FetchPlanTests {
    static func object(_ n: Int, size: Int64) -> StoredObject {
        StoredObject(sha: String(repeating: String(n % 10), count: 40), formats: [.raw: size])
    }

    let bundle = (0..<10).map { object($0, size: 10_000) }

    @Test func oneMissingObjectIsFetchedByItself() {
        let plan = FetchPlan.make(
            missing: [bundle[3]], archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel())
        #expect(plan.strategy == .objects)
        #expect(plan.prefixLength == 512 + 10_240)
    }

    @Test func severalMissingObjectsComeFromTheLMFOPrefix() {
        let missing = Array(bundle[0..<4])
        let plan = FetchPlan.make(
            missing: missing, archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 4096))
        #expect(plan.strategy == .lmfo)
        #expect(plan.prefixLength == 4 * (512 + 10_240))
        #expect(plan.archiveLength == 10 * (512 + 10_240) + 1024)
        let expected: [FetchStrategy: Int64] = [
            .objects: 4 * 4096 + 40_000, .lmfo: 4096 + 4 * 10_752,
            .archive: 4096 + 10 * 10_752 + 1024,
        ]
        #expect(plan.estimates == expected)
    }

    /// A cut download left the archive's first 3.5 members: both archive strategies
    /// resume after them, and the prefix reaches past them by the two still missing (the
    /// member cut counted whole: a few bytes more than needed, never fewer).
    @Test func anArchiveAlreadyPartlyOnDiskIsPricedForTheRest() {
        let partial: Int64 = 3 * 10_752 + 5_000
        let plan = FetchPlan.make(
            missing: Array(bundle[3..<5]), archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 4096), partial: partial)
        #expect(plan.prefixLength == partial + 2 * 10_752)
        #expect(plan.transfers[.lmfo] == FetchPlan.Transfer(requests: 1, bytes: 2 * 10_752))
        #expect(plan.transfers[.archive] == FetchPlan.Transfer(requests: 1, bytes: 10 * 10_752 + 1024 - partial))
        #expect(plan.strategy == .lmfo)
    }

    @Test func requestsCostingNothingFavourObjects() {
        let plan = FetchPlan.make(
            missing: Array(bundle[0..<4]), archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 0))
        #expect(plan.strategy == .objects)
    }

    @Test func aSingleFileVersionHasNoArchiveToFetch() {
        let plan = FetchPlan.make(
            missing: [bundle[0]], archiveObjects: [bundle[0]], fileCount: 1,
            archivePath: "archives/B-2.tar", model: CostModel(), forced: .lmfo)
        #expect(plan.strategy == .objects)
        #expect(plan.archivePath == nil)
    }

    @Test func aForcedStrategyWins() {
        let plan = FetchPlan.make(
            missing: [bundle[0]], archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(), forced: .archive)
        #expect(plan.strategy == .archive)
    }

    /// A link's round trip costs what it moves meanwhile; requests in flight together
    /// share one round trip, and those beyond the first pay one more to open their
    /// connections.
    @Test func aLinkPricesRoundsOfRequests() {
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        #expect(phone.requestOverhead == 250_000 && phone.concurrency == 8)
        #expect(phone.cost(requests: 1, bytes: 1000) == 250_000 + 1000)
        #expect(phone.cost(requests: 8, bytes: 1000) == 2 * 250_000 + 1000)
        #expect(phone.cost(requests: 17, bytes: 0) == 4 * 250_000)
        #expect(phone.cost(requests: 0, bytes: 5) == 5)
        #expect(CostModel(requestOverhead: 100).cost(requests: 3, bytes: 0) == 300)
        #expect(CostModel(requestOverhead: .max).cost(requests: 2, bytes: 1) == .max)
        #expect(CostModel(roundTripSeconds: .infinity, bytesPerSecond: 1, concurrency: 0).requestOverhead == 0)
        #expect(CostModel(roundTripSeconds: .infinity, bytesPerSecond: 1, concurrency: 0).concurrency == 1)
    }

    /// Where the missing objects are the archive's front, its one request beats rounds of
    /// object requests on a phone's link and on a LAN alike; only free round trips (a
    /// local folder) favour the objects, and a lone object is fetched alone.
    @Test func thePlanFollowsTheLink() {
        let many = (0..<40).map { Self.object($0, size: 20_000) }
        func plan(_ model: CostModel) -> FetchPlan {
            FetchPlan.make(
                missing: Array(many[0..<20]), archiveObjects: many, fileCount: 40, archivePath: "archives/B-2.tar", model: model)
        }
        #expect(plan(CostModel(roundTripSeconds: 0.3, bytesPerSecond: 625_000, concurrency: 8)).strategy == .lmfo)
        #expect(plan(CostModel(roundTripSeconds: 0.0002, bytesPerSecond: 100_000_000, concurrency: 8)).strategy == .lmfo)
        #expect(plan(CostModel(roundTripSeconds: 0, bytesPerSecond: 100_000_000, concurrency: 8)).strategy == .objects)
        let one = FetchPlan.make(
            missing: [many[0]], archiveObjects: many, fileCount: 40, archivePath: "archives/B-2.tar",
            model: CostModel(roundTripSeconds: 0.3, bytesPerSecond: 625_000, concurrency: 1))
        #expect(one.strategy == .objects)
    }
}
