import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// The folder of the version before the one a sync switched away from (or, for
/// writable files, the folder switched away from) leaves `bundles/` at once, set aside in
/// `trash/`, and is removed by the next sync while it waits on the network. The folder
/// switched away from stays as the bundle's spare, which the next update brings to its
/// version by touching only the files that differ.
@Suite struct TrashTests {
    static func trash(_ fixture: ClientFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.dir.at("repo/trash"))) ?? []).sorted()
    }

    static func bundles(_ fixture: ClientFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.dir.at("repo/bundles")).sorted()
    }

    static func inode(_ path: String) -> ino_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_ino : 0
    }

    /// Version 3: one more photo replaced, moved to `master`.
    static func publishVersion3(_ fixture: ClientFixture) throws {
        try fixture.dir.write("src/photos/2.jpg", SampleContent.noise(7000, seed: 202))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
    }

    @Test func theVersionLeftIsTheSpareThatTheNextUpdateBringsUpToDate() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let id = ClientFixture.catalogID
        let folder1 = fixture.dir.at(fixture.bundleFolder(1))
        let oldFiles = try fixture.dir.files(under: fixture.bundleFolder(1)).map {
            ($0, try fixture.dir.read(fixture.bundleFolder(1) + "/" + $0))
        }
        let unchanged = Self.inode(folder1 + "/photos/0.jpg")
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(2))
        // The tree `current/` named when the sync began is not written: whole, as it was.
        #expect(try Self.bundles(fixture) == ["\(id).B-1", "\(id).B-2"] && Self.trash(fixture).isEmpty)
        #expect(try oldFiles.allSatisfy { try fixture.dir.read(fixture.bundleFolder(1) + "/" + $0.0) == $0.1 })
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == 1)

        // Version 3 is version 1's folder with the files that differ replaced: the folder
        // and the files in both are the same inodes, and version 2 becomes the spare.
        let folderInode = Self.inode(folder1)
        try Self.publishVersion3(fixture)
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(3))
        #expect(try Self.bundles(fixture) == ["\(id).B-2", "\(id).B-3"] && Self.trash(fixture).isEmpty)
        let folder3 = fixture.dir.at(fixture.bundleFolder(3))
        #expect(Self.inode(folder3) == folderInode && Self.inode(folder3 + "/photos/0.jpg") == unchanged)
        // Objects only version 1 used are gone; versions 2 and 3 keep theirs.
        let objects = Set(fixture.dir.files(under: "repo/objects"))
        #expect(try objects == Set(fixture.manifest(2).objects().keys).union(fixture.manifest(3).objects().keys))
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)
    }

    /// Each kept manifest has its table beside it once synced, and the next update reads
    /// the spare's files from the table alone: its manifest, made garbage of the same
    /// size, is not parsed, and the spare is still brought up to date in place. The
    /// collection keeps the tables of the versions kept and removes the others.
    @Test func theSparesFilesAreReadFromItsTable() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed)
        let manifests = "repo/manifests/\(ClientFixture.catalogID)"
        #expect(Set(fixture.dir.files(under: manifests)) == ["B-1.json", "B-1.table", "B-2.json", "B-2.table"])
        let spareManifest = try fixture.dir.read(manifests + "/B-1.json")
        try fixture.dir.write(manifests + "/B-1.json", [UInt8](repeating: UInt8(ascii: " "), count: spareManifest.count))
        let folderInode = Self.inode(fixture.dir.at(fixture.bundleFolder(1)))
        try Self.publishVersion3(fixture)
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(3))
        #expect(Self.inode(fixture.dir.at(fixture.bundleFolder(3))) == folderInode, "the spare was used")
        #expect(Set(fixture.dir.files(under: manifests)) == ["B-2.json", "B-2.table", "B-3.json", "B-3.table"])
    }

    /// After an update from a collected store, the collection looks only at the objects
    /// of the version that left (the spare's files that changed): those no kept version
    /// holds go, with their chunk records, and the store is not listed, so an object no
    /// version names that was put there behind the collection's back stays. A store not
    /// collected when the sync began (an earlier run cut short) is listed whole as before.
    @Test(arguments: [true, false]) func theCollectionAfterAnUpdateLooksAtTheObjectsOfTheVersionThatLeft(collected: Bool) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed && fixture.dir.exists("repo/collected"))
        try Self.publishVersion3(fixture)
        let onlyVersion1 = try Set(fixture.manifest(1).objects().keys).subtracting(fixture.manifest(2).objects().keys)
            .subtracting(fixture.manifest(3).objects().keys)
        #expect(onlyVersion1.count == 2)
        for object in onlyVersion1 { try fixture.dir.write("repo/chunks/" + object, "a record") }
        let stray = String(repeating: "0", count: 40)
        try fixture.dir.write("repo/objects/" + stray, "no version's")
        try fixture.dir.write("repo/tmp/left.tar.part", "cut short")
        if !collected { #expect(unlink(fixture.dir.at("repo/collected")) == 0) }
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        #expect(report.removedObjects == (collected ? 2 : 3))
        let kept = try Set(fixture.manifest(2).objects().keys).union(fixture.manifest(3).objects().keys)
        #expect(Set(fixture.dir.files(under: "repo/objects")) == (collected ? kept.union([stray]) : kept))
        #expect(Set(fixture.dir.files(under: "repo/chunks")).isDisjoint(with: onlyVersion1))
        #expect(fixture.dir.files(under: "repo/tmp").isEmpty && fixture.dir.exists("repo/collected"))
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)
    }

    /// Moving back to the spare's version touches no file at all.
    @Test func aRollbackToTheSpareIsARename() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed)
        let inode = Self.inode(fixture.dir.at(fixture.bundleFolder(1)))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(1)).run()
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated && report.bundles.first?.objectRequests == 0)
        #expect(Self.inode(fixture.dir.at(fixture.bundleFolder(1))) == inode)
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == 2)
    }

    @Test func aWritableBundlesOldVersionIsSetAsideAndRemovedByTheNextSync() throws {
        let fixture = try ClientFixture()
        try fixture.repo.track(url: fixture.server.url, bundle: "B", writableFiles: true, options: fixture.options())
        _ = try fixture.sync()
        try fixture.publishVersion2()
        let oldPhoto = try fixture.dir.read(fixture.bundleFolder(1) + "/photos/1.jpg")
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(2))
        #expect(try Self.bundles(fixture) == ["\(ClientFixture.catalogID).B-2"])
        let aside = Self.trash(fixture)
        #expect(aside.count == 1 && aside[0].hasPrefix("\(ClientFixture.catalogID).B-1."), "\(aside)")
        // Whole, as it was: an app still reading the old version's files keeps them.
        #expect(try fixture.dir.read("repo/trash/\(aside[0])/photos/1.jpg") == oldPhoto)

        // Up to date: nothing to download, and the trash emptied all the same.
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .upToDate)
        #expect(Self.trash(fixture).isEmpty)
    }

    /// An update that finds no spare (the first after a repo made by an earlier client,
    /// or a spare gone) builds the whole folder, and the spare's leftovers go.
    @Test func anUpdateWithoutItsSpareBuildsTheWholeFolder() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        _ = try fixture.sync()
        try FileManager.default.removeItem(atPath: fixture.dir.at("repo/manifests/\(ClientFixture.catalogID)/B-1.json"))
        try Self.publishVersion3(fixture)
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(3))
        let aside = Self.trash(fixture)
        #expect(aside.count == 1 && aside[0].hasPrefix("\(ClientFixture.catalogID).B-1."), "only version 1's folder: \(aside)")
        #expect(try Self.bundles(fixture) == ["\(ClientFixture.catalogID).B-2", "\(ClientFixture.catalogID).B-3"])
    }

    /// The spare is brought to the new version by one merge of the two manifests in path
    /// order: exactly the changed, added and removed files are touched, the others keep
    /// their inodes. A manifest that does not list its files in path order (the catalog's
    /// own, rewritten in reverse, without its chunk description) syncs exactly the same.
    @Test(arguments: [false, true]) func theSpareChangesExactlyTheFilesThatDiffer(unsorted: Bool) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed)
        let folder1 = fixture.dir.at(fixture.bundleFolder(1))
        let before = Dictionary(
            uniqueKeysWithValues: fixture.dir.files(under: fixture.bundleFolder(1)).map { ($0, Self.inode(folder1 + "/" + $0)) })
        // From version 1 (the spare): photos/1 and 4 changed in version 2, photos/2 in 3;
        // lessons/more.json added in 2, photos/6.jpg in 3; photos/5.jpg removed in 3.
        try fixture.dir.write("src/photos/2.jpg", SampleContent.noise(7000, seed: 202))
        try fixture.dir.write("src/photos/6.jpg", SampleContent.noise(800, seed: 206))
        try FileManager.default.removeItem(atPath: fixture.dir.at("src/photos/5.jpg"))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        if unsorted {
            let manifest = try fixture.manifest(3)
            let files = manifest.files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.reversed().map { path in
                let object = manifest.files[path]!.object
                let formats = object.formats.map { #""\#($0.key.rawValue)":{"size":\#($0.value)}"# }.joined(separator: ",")
                return #""\#(path)":{"formats":{\#(formats)},"sha":"\#(object.sha)"}"#
            }
            let json = Array(
                #"{"bundle":"B","catalog":"\#(ClientFixture.catalogID)","files":{\#(files.joined(separator: ","))},"flavors":[],"version":3}"#
                    .utf8)
            #expect(try Manifest.parse(json, path: "B-3") == manifest)
            try fixture.dir.write("cat/manifests/B-3.json", json)
            try fixture.dir.write("cat/manifests/B-3.json.gz", GzipCompressor.compress(json))
            try? FileManager.default.removeItem(atPath: fixture.dir.at("cat/manifest-chunks/B-3.json.gz"))
        }
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(3))
        let folder3 = fixture.dir.at(fixture.bundleFolder(3))
        let after = Set(fixture.dir.files(under: fixture.bundleFolder(3)))
        #expect(after == Set(before.keys).subtracting(["photos/5.jpg"]).union(["lessons/more.json", "photos/6.jpg"]))
        let touched = Set(after.filter { before[$0] != Self.inode(folder3 + "/" + $0) })
        #expect(touched == ["photos/1.jpg", "photos/2.jpg", "photos/4.jpg", "lessons/more.json", "photos/6.jpg"])
    }

    /// An update with a spare looks at the objects of the files it places and at no
    /// other: an object only unchanged files use, replaced in objects/ by other bytes, is
    /// neither hashed nor fetched again (the folder's links keep its verified bytes), and
    /// the files linked are exactly those that differ.
    @Test func anUpdateLooksAtTheChangedFilesObjectsAlone() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed)
        let unchanged = try #require(try fixture.manifest(2).files["photos/0.jpg"]?.sha)
        let object = fixture.dir.at("repo/objects/" + unchanged)
        #expect(unlink(object) == 0)
        try fixture.dir.write("repo/objects/" + unchanged, "not the object")
        let folder1 = fixture.dir.at(fixture.bundleFolder(1))
        let before = Dictionary(
            uniqueKeysWithValues: fixture.dir.files(under: fixture.bundleFolder(1)).map { ($0, Self.inode(folder1 + "/" + $0)) })
        try fixture.dir.write("src/photos/2.jpg", SampleContent.noise(7000, seed: 202))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()

        let report = try fixture.sync()
        let bundle = try #require(report.bundles.first)
        #expect(!report.failed && bundle.outcome == .updated, "\(fixture.failure(report))")
        // Photo 2's new object alone is fetched: versions 2's changes are in the repo.
        #expect(bundle.missingObjects == 1 && bundle.damagedObjects.isEmpty)
        #expect(try fixture.dir.read("repo/objects/" + unchanged) == Array("not the object".utf8))
        let folder3 = fixture.dir.at(fixture.bundleFolder(3))
        let touched = Set(fixture.dir.files(under: fixture.bundleFolder(3)).filter { before[$0] != Self.inode(folder3 + "/" + $0) })
        // From the spare (version 1): version 2's changes and photo 2.
        #expect(touched == ["photos/1.jpg", "photos/2.jpg", "photos/4.jpg", "lessons/more.json"])
    }

    /// Version 2 synced (version 1 the spare), then `lessons/words.json`, a file both
    /// versions share, edited under `current/` through its link (damaging its object, which
    /// the spare's file links too), and `photos/0.jpg` removed.
    static func damagedWithASpare() throws -> (ClientFixture, sha: String, spare: ino_t, kept: ino_t) {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        #expect(try !fixture.sync().failed)
        let sha = try #require(try fixture.manifest(2).files["lessons/words.json"]?.sha)
        let current = fixture.repo.currentPath(catalog: ClientFixture.catalogID, bundle: "B")
        #expect(chmod(current + "/lessons/words.json", 0o644) == 0)
        try Data("hacked".utf8).write(to: URL(fileURLWithPath: current + "/lessons/words.json"))
        #expect(unlink(current + "/photos/0.jpg") == 0)
        let folder1 = fixture.dir.at(fixture.bundleFolder(1))
        return (fixture, sha, Self.inode(folder1), Self.inode(folder1 + "/photos/5.jpg"))
    }

    /// A repair (by `repo verify --repair`, or by a sync after `status`) brings the spare
    /// to the version in use, touching only the files that differ and the damaged ones,
    /// then switches: the damaged folder is not written, and goes to the trash whole. The
    /// damaged object is fetched again and every kept link to it made again.
    @Test(arguments: [false, true]) func aRepairBringsTheSpareToTheVersionTouchingOnlyTheDamage(verify: Bool) throws {
        let (fixture, sha, spare, kept) = try Self.damagedWithASpare()
        let id = ClientFixture.catalogID
        let report: SyncReport
        if verify {
            report = try SyncEngine(repo: fixture.repo, options: fixture.options()).repair()
        } else {
            #expect(try fixture.repo.status().first?.health?.damagedFiles == ["lessons/words.json", "photos/0.jpg"])
            report = try fixture.sync()
        }
        let bundle = try #require(report.bundles.first)
        #expect(!report.failed && bundle.outcome == .repaired && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(report))")
        #expect(bundle.missingObjects == 1)
        #expect(try fixture.bundleMatchesSource(2))
        let folder2 = fixture.dir.at(fixture.bundleFolder(2))
        #expect(Self.inode(folder2) == spare && Self.inode(folder2 + "/photos/5.jpg") == kept, "built from the spare")
        #expect(Self.inode(folder2 + "/lessons/words.json") == Self.inode(fixture.dir.at("repo/objects/" + sha)))
        #expect(try SHA1.hash(fixture.dir.read("repo/objects/" + sha)) == sha)
        // The damaged folder, whole as it was, set aside; the spare is spent.
        #expect(try Self.bundles(fixture) == ["\(id).B-2"])
        let aside = Self.trash(fixture)
        #expect(aside.count == 1, "\(aside)")
        #expect(try fixture.dir.read("repo/trash/\(aside.first ?? "")/lessons/words.json") == Array("hacked".utf8))
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == nil)
        #expect(try fixture.repo.verify().allSatisfy(\.isHealthy))
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate && Self.trash(fixture).isEmpty)
    }

    /// An update from a folder `status` found damaged is built from the spare, the damaged
    /// object's files placed again; the damaged folder is not kept as the next spare.
    @Test func anUpdateFromADamagedFolderIsBuiltFromTheSpare() throws {
        let (fixture, sha, spare, kept) = try Self.damagedWithASpare()
        #expect(try fixture.repo.status().first?.health?.isHealthy == false)
        try Self.publishVersion3(fixture)
        let report = try fixture.sync()
        let bundle = try #require(report.bundles.first)
        #expect(!report.failed && bundle.outcome == .updated && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(3))
        let folder3 = fixture.dir.at(fixture.bundleFolder(3))
        #expect(Self.inode(folder3) == spare && Self.inode(folder3 + "/photos/0.jpg") != 0)
        #expect(Self.inode(folder3 + "/lessons/words.json") == Self.inode(fixture.dir.at("repo/objects/" + sha)))
        #expect(Self.inode(folder3 + "/photos/5.jpg") == kept, "an unchanged file of the spare")
        #expect(try Self.bundles(fixture) == ["\(ClientFixture.catalogID).B-3"])
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == nil)
        #expect(try fixture.repo.verify().allSatisfy(\.isHealthy))
    }
}
