import Foundation
import Testing
import Zinc
import ZincTestSupport

/// A damaged index copy, with the others intact: readers go on from an intact copy and
/// say how to repair; `verify --repair` and the first writer repair it, saying why.
@Suite struct IndexRepairTests {
    let dir: TemporaryDirectory
    var cat: String { dir.path + "/cat" }

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try makeCatalogWithMaster(in: dir, bundle: "Core")
    }

    func file(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: cat + "/" + name)) }
    func damage(_ name: String) throws { try Data("{\"format\": \"1\", \"bund".utf8).write(to: URL(fileURLWithPath: cat + "/" + name)) }

    @Test func aReaderUsesAnIntactCopyAndNamesTheRepair() throws {
        try damage("catalog.json")
        let list = try ZincRunner(in: dir, silentStderr: false).succeeds(["list", "--catalog", "cat"])
        #expect(list.stdout.contains("Core"))
        #expect(
            list.stderr.hasPrefix("zinc: warning: '\(cat)/catalog.json' is damaged (not JSON"),
            "\(list.stderr)")
        #expect(list.stderr.contains("read catalog.json.gz instead. 'zinc verify --repair --catalog \(cat)' repairs it"))
        // A reader writes nothing.
        #expect(try file("catalog.json") != file("index.json"))

        let verify = try dir.zinc.run(["verify", "--catalog", "cat"])
        #expect(verify.status == 2, "\(verify.stderr)")
        #expect(verify.stdout.contains("catalog.json: damaged (not JSON"), "\(verify.stdout)")
        #expect(!verify.stdout.contains("differs from"), "\(verify.stdout)")

        let repair = try ZincRunner(in: dir, silentStderr: false).succeeds(["verify", "--repair", "--catalog", "cat", "--quiet"])
        #expect(repair.stderr.contains("zinc: repairing catalog.json of '\(cat)' from catalog.json.gz (catalog.json was damaged: not JSON"))
        #expect(try file("catalog.json") == file("index.json"))
        try dir.zinc(["verify", "--catalog", "cat", "--quiet"])
    }

    @Test func theFirstWriterRepairsTheCommitPoint() throws {
        try damage("catalog.json")
        let promote = try ZincRunner(in: dir, silentStderr: false).succeeds(
            ["update_distro", "--catalog", "cat", "--bundle", "Core", "--distro", "test", "--version", "1"])
        #expect(
            promote.stderr.contains("zinc: repairing catalog.json of '\(cat)' from catalog.json.gz (catalog.json was damaged: not JSON"))
        let index = try CatalogIndex.parse(Array(try file("catalog.json")), path: "catalog.json")
        #expect(index.bundles["Core"]?.distributions == ["master": 1, "test": 1])
        try dir.zinc(["verify", "--catalog", "cat", "--quiet"])
    }

    /// The copy ahead (a higher `next_version`) is used, not an older intact one.
    @Test func theNewestIntactCopyIsTheSource() throws {
        let older = try file("index.json")
        try dir.write("src/new.txt", "level 2")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src"])
        try older.write(to: URL(fileURLWithPath: cat + "/index.json"))
        try damage("catalog.json")
        try damage("catalog.json.gz")
        let repair = try ZincRunner(in: dir, silentStderr: false).succeeds(["verify", "--repair", "--catalog", "cat", "--quiet"])
        #expect(repair.stderr.contains("from index.json.gz"), "\(repair.stderr)")
        #expect(repair.stderr.contains("catalog.json.gz (damaged: not a valid gzip stream"), "\(repair.stderr)")
        #expect(repair.stderr.contains("index.json (left behind by an interrupted writer)"), "\(repair.stderr)")
        let index = try CatalogIndex.parse(Array(try file("index.json")), path: "index.json")
        #expect(index.bundles["Core"]?.versions == [1, 2])
    }

    /// Intact copies that differ other than by one being ahead: nothing is written, and
    /// the error shows both.
    @Test func disagreeingCopiesAreShownAndNothingIsWritten() throws {
        let older = try file("index.json")
        try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "Core", "--distro", "test", "--version", "1"])
        try older.write(to: URL(fileURLWithPath: cat + "/index.json"))
        try damage("catalog.json")
        let before = try file("catalog.json")
        let repair = try dir.zinc.run(["verify", "--repair", "--catalog", "cat"])
        #expect(repair.status == 1)
        #expect(
            repair.stderr.contains(
                "its intact copies disagree, so none was used and nothing was written: "
                    + "catalog.json.gz lists 'Core' versions 1, next_version 1, master=1 test=1; "
                    + "index.json lists 'Core' versions 1, next_version 1, master=1"), "\(repair.stderr)")
        #expect(try file("catalog.json") == before)
    }

    /// A damaged copy that follows the commit point is repaired with the true reason.
    @Test func aDamagedCopyIsRepairedWithItsReason() throws {
        try damage("index.json")
        let repair = try ZincRunner(in: dir, silentStderr: false).succeeds(["verify", "--repair", "--catalog", "cat", "--quiet"])
        #expect(repair.stderr == "zinc: repairing index.json (damaged: not JSON (unterminated string at byte 21)) of '\(cat)'\n")
    }
}
