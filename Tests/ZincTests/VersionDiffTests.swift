import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `Catalog.diff` and `Catalog.updateCosts`: the files that changed, and a download
/// plan whose figures are the real archive's bytes.
@Suite struct VersionDiffTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    static let photo = SampleContent.noise(8640, seed: 1)
    static let newPhoto = SampleContent.noise(9000, seed: 2)
    static let clip = SampleContent.noise(20000, seed: 3)

    /// B 1: kind.jpg, lesson.js, old.txt; B 2: kind.jpg replaced, old.txt removed,
    /// clip.caf added; B 3: lesson.js changed. master went 1 -> 2 (so _master is 1),
    /// test is at 1.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "c", in: FileStorage(root: dir.at("cat")))
        try dir.write("src/img/kind.jpg", Self.photo)
        try dir.write("src/lesson.js", SampleContent.text(3000, word: "lesson"))
        try dir.write("src/old.txt", "old")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/img/kind.jpg", Self.newPhoto)
        try FileManager.default.removeItem(atPath: dir.at("src/old.txt"))
        try dir.write("src/audio/clip.caf", Self.clip)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/lesson.js", SampleContent.text(3100, word: "lesson"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
        try DistroUpdate(catalog, bundle: "B", distro: "test", to: .number(1)).run()
    }

    @Test func listsAddedRemovedAndChangedFiles() throws {
        let diff = try VersionDiff(catalog, bundle: "B", from: .number(1), to: VersionSpec("@master"))
        #expect((diff.from, diff.to) == (1, 2))
        #expect(diff.added.map(\.path) == ["audio/clip.caf"])
        #expect(diff.added[0].object.sha == sha1Hex(Self.clip))
        #expect(diff.removed.map(\.path) == ["old.txt"])
        #expect(diff.changed.map(\.path) == ["img/kind.jpg"])
        #expect(diff.changed[0].old.sha == sha1Hex(Self.photo))
        #expect(diff.changed[0].new.sha == sha1Hex(Self.newPhoto))
        #expect(diff.changed[0].new.formats[.raw] == 9000)
        #expect(diff.unchanged == 1)
    }

    @Test func theDownloadPlanMatchesTheArchiveOnDisk() throws {
        let diff = try VersionDiff(catalog, bundle: "B", from: .number(1), to: .number(2))
        let plan = diff.plan
        #expect(Set(plan.missing.map(\.sha)) == [sha1Hex(Self.clip), sha1Hex(Self.newPhoto)])
        #expect(plan.transfers[.objects] == FetchPlan.Transfer(requests: 2, bytes: 29_000))
        let archive = try dir.read("cat/archives/B-2.tar")
        #expect(plan.transfers[.archive] == FetchPlan.Transfer(requests: 1, bytes: Int64(archive.count)))
        // The LMFO range is exactly the archive's first members: the two new objects.
        let prefix = Int(plan.transfers[.lmfo]!.bytes)
        let members = try #require(TarListing.members(Array(archive.prefix(prefix)) + [UInt8](repeating: 0, count: 1024)))
        #expect(Set(members.map(\.name)) == Set(plan.missing.map(\.fileName)))
        #expect(plan.strategy == .lmfo)
    }

    @Test func theSameVersionDownloadsNothing() throws {
        let diff = try VersionDiff(catalog, bundle: "B", from: .latest, to: .number(3))
        #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.changed.isEmpty)
        #expect(diff.unchanged == 3)
        #expect(diff.plan.missing.isEmpty)
        #expect(diff.plan.transfers[.objects] == FetchPlan.Transfer(requests: 0, bytes: 0))
    }

    @Test func summarisesTheUpdateOfEveryVersionInUse() throws {
        let costs = try UpdateCosts(catalog, bundle: "B")
        #expect(costs.to == 3)
        #expect(costs.rows.map(\.diff.from) == [2, 1])
        #expect(costs.rows.map(\.distributions) == [["master"], ["_master", "test"]])
        #expect(costs.rows[0].diff.plan.missing.count == 1)
        #expect(costs.rows[1].diff == (try VersionDiff(catalog, bundle: "B", from: .number(1), to: .number(3))))
    }

    @Test func refusesUnknownVersionsDistrosAndFlavors() throws {
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "9")) {
            try VersionDiff(catalog, bundle: "B", from: .number(9), to: .latest)
        }
        #expect(throws: ZincError.distroNotFound(bundle: "B", distro: "prod")) {
            try VersionDiff(catalog, bundle: "B", from: .distro("prod"), to: .latest)
        }
        #expect(throws: ZincError.bundleNotFound("Nope")) { try UpdateCosts(catalog, bundle: "Nope") }
        #expect(throws: ZincError.self) { try VersionDiff(catalog, bundle: "B", from: .number(1), to: .latest, flavor: "phone") }
    }
}
