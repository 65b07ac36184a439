import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A repo whose files were edited, replaced or damaged on disk: status and verify notice
/// and record it, the next sync rebuilds what they found, repair fetches only the damaged
/// objects, and no version is built from them. A sync of a bundle at its version trusts
/// its folder until a check finds it damaged.
@Suite struct StoreHealingTests {
    static let edited = "lessons/words.json"

    /// Version 1 synced (from the catalog signed by `key`, trusted, when given), then
    /// `lessons/words.json` edited through its hard link, as a user would: chmod u+w, write.
    static func syncedThenEdited(signedBy key: SigningKey? = nil) throws -> (ClientFixture, sha: String) {
        let fixture = try ClientFixture()
        if let key { _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: key)).run() }
        let keys = key.map { [$0.publicKey] } ?? []
        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: keys, options: fixture.options())
        _ = try fixture.sync()
        let sha = try #require(fixture.manifest(1).files[edited]?.sha)
        let path = fixture.dir.at(fixture.bundleFolder(1) + "/" + edited)
        #expect(chmod(path, 0o644) == 0)
        try Data("hacked".utf8).write(to: URL(fileURLWithPath: path))
        // The edit went through to the repo's object: one inode.
        #expect(try fixture.dir.read("repo/objects/" + sha) == Array("hacked".utf8))
        return (fixture, sha)
    }

    @Test func anEditThroughALinkIsFoundAndRepairedBySync() throws {
        let (fixture, sha) = try Self.syncedThenEdited()
        let status = try #require(fixture.repo.status().first)
        #expect(status.health?.damagedFiles == [Self.edited])

        let report = try fixture.sync()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .repaired, "\(fixture.failure(report))")
        #expect(bundle.damagedFiles == [Self.edited] && bundle.damagedObjects.map(\.hex) == [sha])
        #expect(bundle.line.contains("repaired at version 1"))
        #expect(try fixture.bundleMatchesSource(1))
        #expect(try SHA1.hash(fixture.dir.read("repo/objects/" + sha)) == sha)
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)
    }

    @Test func anEditWithItsModificationTimeSetBackIsStillFound() throws {
        let (fixture, _) = try Self.syncedThenEdited()
        let path = fixture.dir.at(fixture.bundleFolder(1) + "/" + Self.edited)
        // "hacked" is shorter: make the size what it was too, then set the time back.
        let original = try fixture.dir.read("src/" + Self.edited)
        try Data(original.map { $0 == UInt8(ascii: "b") ? UInt8(ascii: "B") : $0 }).write(to: URL(fileURLWithPath: path))
        let times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        #expect(try fixture.repo.status().first?.health?.damagedFiles == [Self.edited])
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired)
        #expect(try fixture.bundleMatchesSource(1))
    }

    @Test func aNewVersionIsNeverBuiltFromADamagedObject() throws {
        let (fixture, sha) = try Self.syncedThenEdited()
        // Version 2 keeps lessons/words.json: its object is the one damaged, which status finds.
        #expect(try fixture.repo.status().first?.health?.damagedFiles == [Self.edited])
        try fixture.publishVersion2()
        #expect(try fixture.manifest(2).files[Self.edited]?.sha == sha)
        let report = try fixture.sync()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(2))
    }

    @Test func aRemovedOrReplacedFileIsRebuiltWithoutADownload() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let folder = fixture.dir.at(fixture.bundleFolder(1))
        // The folder is the app's to write in: a file removed, another replaced by a new file.
        #expect(unlink(folder + "/photos/2.jpg") == 0)
        #expect(unlink(folder + "/photos/3.jpg") == 0)
        try fixture.dir.write(fixture.bundleFolder(1) + "/photos/3.jpg", "not a photo")
        #expect(try fixture.repo.status().first?.health?.damagedFiles == ["photos/2.jpg", "photos/3.jpg"])
        let report = try fixture.sync()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .repaired && bundle.damagedFiles == ["photos/2.jpg", "photos/3.jpg"])
        #expect(bundle.damagedObjects.isEmpty && bundle.objectRequests == 0)
        #expect(try fixture.bundleMatchesSource(1))
    }

    /// An up-to-date sync costs the same whatever the bundle holds: it walks no folder and
    /// hashes nothing, so damage no check has seen stays until `status` (or `repo verify`)
    /// finds it and records it in damage.json; the next sync then rebuilds the folder.
    @Test func aSyncTrustsItsFolderUntilStatusFindsItDamaged() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        #expect(fixture.dir.exists("repo/collected"))
        let stamps = try fixture.dir.read("repo/stamps")
        #expect(unlink(fixture.dir.at(fixture.bundleFolder(1) + "/photos/2.jpg")) == 0)
        // The kept manifest is not even read: damaged, it would fail a sync that read it.
        let manifest = "repo/manifests/\(ClientFixture.catalogID)/B-1.json"
        let kept = try fixture.dir.read(manifest)
        try fixture.dir.write(manifest, "not a manifest")
        let unchecked = try fixture.sync()
        #expect(unchecked.bundles.first?.outcome == .upToDate, "\(fixture.failure(unchecked))")
        #expect(!fixture.dir.exists(fixture.bundleFolder(1) + "/photos/2.jpg"))
        #expect(try fixture.dir.read("repo/stamps") == stamps)
        try fixture.dir.write(manifest, kept)

        #expect(try fixture.repo.status().first?.health?.damagedFiles == ["photos/2.jpg"])
        #expect(try fixture.dir.read("repo/damage.json") == Array(#"{"folders":["com.example.app.B-1"],"format":1}"#.utf8))
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))
        #expect(!fixture.dir.exists("repo/damage.json"))
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)
    }

    /// A record that cannot be read names every folder: each is checked, as by a sync
    /// before the record existed.
    @Test func aDamageRecordThatCannotBeReadHasEveryFolderChecked() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        #expect(unlink(fixture.dir.at(fixture.bundleFolder(1) + "/photos/2.jpg")) == 0)
        try fixture.dir.write("repo/damage.json", "{\"format\":1,\"folders\":")
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired && report.bundles.first?.damagedFiles == ["photos/2.jpg"])
        #expect(try fixture.bundleMatchesSource(1))
        #expect(!fixture.dir.exists("repo/damage.json"))
    }

    /// A repo copied by a tool that follows symbolic links: `current/<catalog>.<bundle>`
    /// is a folder holding a copy of the files. The next sync puts the link back.
    @Test func aRepoCopiedWithoutItsLinksHeals() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let current = fixture.repo.currentPath(catalog: ClientFixture.catalogID, bundle: "B")
        #expect(unlink(current) == 0)
        try FileManager.default.copyItem(atPath: fixture.dir.at(fixture.bundleFolder(1)), toPath: current)
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .upToDate, "\(fixture.failure(report))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: current) == "../bundles/com.example.app.B-1")
        #expect(try fixture.bundleMatchesSource(1))
    }

    /// An edit under `current/` is an edit of the checked-out folder, through its link.
    @Test func anEditUnderCurrentIsFoundByStatusAndHealedBySync() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let path = fixture.repo.currentPath(catalog: ClientFixture.catalogID, bundle: "B") + "/" + Self.edited
        #expect(chmod(path, 0o644) == 0)
        try Data("edited under current/".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try fixture.repo.status().first?.health?.damagedFiles == [Self.edited])
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired, "\(fixture.failure(report))")
        #expect(try fixture.dir.read("src/" + Self.edited) == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    #if os(Linux)
    /// A repair opens the version's kept manifest once, to judge the folder and to rebuild
    /// it (it was parsed twice); in a signed catalog the SHA-256 its signature covers is
    /// taken in that same pass (it was read a third time).
    @Test(arguments: [false, true]) func aRepairReadsTheKeptManifestOnce(signed: Bool) throws {
        let (fixture, sha) = try Self.syncedThenEdited(signedBy: signed ? SigningKey.generate() : nil)
        #expect(try fixture.repo.status().first?.health?.damagedFiles == [Self.edited])
        let opens = try FileOpens(fixture.dir.at("repo/manifests/\(ClientFixture.catalogID)/B-1.json"))
        let report = try SyncEngine(repo: fixture.repo, options: fixture.options()).repair()
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .repaired && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))
        #expect(opens.count == 1)
    }
    #endif

    /// What a failing disk does: bytes changed, no time or size. Only hashing finds it. A
    /// strategy that weighs no LMFO record (as at 100,000 files, whose record is not worth
    /// its bytes) keeps the version's objects without their sizes and reads those of the
    /// damaged one from its rows.
    @Test(arguments: [nil, FetchStrategy.objects, .archive])
    func verifyFindsSilentDamageAndRepairFetchesOnlyIt(strategy: FetchStrategy?) throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let sha = try #require(fixture.manifest(1).files["photos/0.jpg"]?.sha)
        let object = fixture.dir.at("repo/objects/" + sha)
        var before = stat()
        #expect(stat(object, &before) == 0)
        try Self.flipFirstByte(of: object)
        // Stamp it as the disk would leave it, as if nothing had changed.
        try Self.restamp(sha, in: fixture)
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)

        let found = try fixture.repo.verify()
        #expect(found.map(\.damagedFiles) == [["photos/0.jpg"]])
        let repair = try SyncEngine(repo: fixture.repo, options: fixture.options(strategy)).repair()
        let bundle = try #require(repair.bundles.first)
        #expect(bundle.outcome == .repaired && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(repair))")
        // No index: only the object.
        #expect(repair.catalogs.first?.requests == 0)
        #expect(bundle.objectBytes == before.st_size || bundle.missingObjects == 1)
        #expect(try fixture.repo.verify().allSatisfy(\.isHealthy))
        #expect(try fixture.bundleMatchesSource(1))
    }

    /// An app that asks for writable files gets files of its own: writing to them
    /// touches no object, and a sync leaves them as the app made them.
    @Test func writableFilesAreTheAppsOwn() throws {
        let fixture = try ClientFixture()
        try fixture.repo.track(url: fixture.server.url, bundle: "B", writableFiles: true, options: fixture.options())
        #expect(try fixture.repo.loadState().bundles.first?.writableFiles == true)
        _ = try fixture.sync()
        #expect(try fixture.bundleMatchesSource(1))
        let sha = try #require(fixture.manifest(1).files[Self.edited]?.sha)
        let path = fixture.dir.at(fixture.bundleFolder(1) + "/" + Self.edited)
        var file = stat()
        var object = stat()
        #expect(stat(path, &file) == 0 && stat(fixture.dir.at("repo/objects/" + sha), &object) == 0)
        #expect(file.st_ino != object.st_ino && file.st_mode & 0o200 != 0)
        try Data("the app's notes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try SHA1.hash(fixture.dir.read("repo/objects/" + sha)) == sha)
        #expect(try fixture.sync().bundles.first?.outcome == .upToDate)
        #expect(try fixture.dir.read(fixture.bundleFolder(1) + "/" + Self.edited) == Array("the app's notes".utf8))
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)

        // A new version is built afresh, from the objects.
        try fixture.publishVersion2()
        #expect(try fixture.sync().bundles.first?.outcome == .updated)
        #expect(try fixture.bundleMatchesSource(2))
    }

    private static func flipFirstByte(of path: String) throws {
        #expect(chmod(path, 0o644) == 0)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let first = try #require(try handle.read(upToCount: 1))
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data([first[0] ^ 0xFF]))
        try handle.close()
        #expect(chmod(path, 0o444) == 0)
    }

    /// Rewrites the repo's stamp of `sha` from its object as it is now (see `stamps` in the client guide).
    private static func restamp(_ sha: String, in fixture: ClientFixture) throws {
        let digest = try #require(SHA1.Digest(hex: sha))
        var entries = ObjectStamps.load(from: fixture.repo).entries.filter { $0.0 != digest }
        entries.append((digest, stamp(of: fixture.dir.at("repo/objects/" + sha))))
        try ObjectStamps(entries).save(in: fixture.repo)
    }

    /// The stamp of the file at `path` as it is now.
    private static func stamp(of path: String) -> ObjectStamp {
        var info = stat()
        #expect(lstat(path, &info) == 0)
        let nanoseconds = { (t: timespec) in Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return ObjectStamp(
            size: Int64(info.st_size), modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim),
            inode: UInt64(info.st_ino))
    }

    /// A repair looks no stamp up, and reads the recorded ones only to save them: each
    /// object of the version is stamped as the repair's links left it, and the stamp of
    /// an object it never judged is kept as it was.
    @Test func aRepairStampsItsObjectsAndKeepsTheOtherStamps() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let sha = try #require(fixture.manifest(1).files["photos/0.jpg"]?.sha)
        try Self.flipFirstByte(of: fixture.dir.at("repo/objects/" + sha))
        let other = SHA1.digest(Array("an object of another bundle".utf8))
        let recorded = ObjectStamp(size: 1, modified: 2, changed: 3, inode: 4)
        try ObjectStamps(Array(ObjectStamps.load(from: fixture.repo).entries) + [(other, recorded)]).save(in: fixture.repo)

        let repair = try SyncEngine(repo: fixture.repo, options: fixture.options()).repair()
        let bundle = try #require(repair.bundles.first)
        #expect(bundle.outcome == .repaired && bundle.damagedObjects.map(\.hex) == [sha], "\(fixture.failure(repair))")
        let saved = ObjectStamps.load(from: fixture.repo)
        let shas = Set(try fixture.manifest(1).files.values.map(\.sha))
        #expect(saved.count == shas.count + 1 && saved[other.hex] == recorded)
        for sha in shas { #expect(saved[sha] == Self.stamp(of: fixture.dir.at("repo/objects/" + sha)), "\(sha)") }
    }
}
