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
}
