import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// The folder of the version a sync switched away from leaves `bundles/` at once, set
/// aside in `trash/`, and is removed by the next sync while it waits on the network.
@Suite struct TrashTests {
    static func trash(_ fixture: ClientFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.dir.at("repo/trash"))) ?? []).sorted()
    }

    @Test func theOldVersionIsSetAsideAndRemovedByTheNextSync() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let oldPhoto = try fixture.dir.read(fixture.bundleFolder(1) + "/photos/1.jpg")
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.dir.at("repo/bundles")) == ["\(ClientFixture.catalogID).B-2"])
        let aside = Self.trash(fixture)
        #expect(aside.count == 1 && aside[0].hasPrefix("\(ClientFixture.catalogID).B-1."), "\(aside)")
        // Whole, as it was: an app still reading the old version's files keeps them.
        #expect(try fixture.dir.read("repo/trash/\(aside[0])/photos/1.jpg") == oldPhoto)

        // Up to date: nothing to download, and the trash emptied all the same.
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .upToDate)
        #expect(Self.trash(fixture).isEmpty)
    }

    @Test func aSyncThatDownloadsEmptiesTheTrashFirst() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        _ = try fixture.sync()
        try fixture.dir.write("src/photos/2.jpg", SampleContent.noise(7000, seed: 202))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(3))
        let aside = Self.trash(fixture)
        #expect(aside.count == 1 && aside[0].hasPrefix("\(ClientFixture.catalogID).B-2."), "only version 2's folder: \(aside)")
    }
}
