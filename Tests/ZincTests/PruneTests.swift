import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `Prune`: its plan, the dry run, is what its run then does.
@Suite struct PruneTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Bundle B with versions 1 to 4, each adding a file; `master` points at version 1.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogGrowingByAFile(in: dir, versions: 4)
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
    }

    @Test func thePlanIsWhatTheRunDeletesAndRemoves() throws {
        // Garbage from before the prune, which its clean removes too.
        let stray = "objects/00/11/0011223344556677889900112233445566778899.gz"
        try dir.write("cat/" + stray, "zz")
        let prune = Prune(catalog, keepLast: 2, grace: .zero)
        let before = dir.files(under: "cat")
        let plan = try prune.plan()
        #expect(dir.files(under: "cat") == before)
        #expect(plan.deletions.map(\.versions) == [[2]] && plan.keptReferenced == ["B": [1]])

        let dryRun = plan.report
        let report = try prune.run()
        #expect(!dryRun.performed && report.performed)
        #expect(report.deletions == dryRun.deletions && report.keptReferenced == dryRun.keptReferenced)
        #expect(report.clean.files == dryRun.clean.files && report.wouldFree == dryRun.wouldFree)
        #expect(report.clean.files.map(\.path).contains(stray))
        let removed = Set(before).subtracting(dir.files(under: "cat"))
        #expect(removed == Set(dryRun.clean.files.map(\.path)))
        #expect(try catalog.index().bundles["B"]?.versions == [1, 3, 4])
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func refusesToKeepNoVersion() throws {
        #expect(throws: ZincError.pruneKeepsNoVersion(keepLast: 0)) { try Prune(catalog, keepLast: 0).plan() }
        #expect(throws: ZincError.pruneKeepsNoVersion(keepLast: 0)) { try Prune(catalog, keepLast: 0).run() }
    }
}
