import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// What `status` finds in one walk of a checked-out folder, judging each file by its
/// object's stamp, and the stamps it judges by: kept in `stamps`, read from the
/// `stamps.json` of earlier clients until the next check writes `stamps`.
@Suite struct StatusScanTests {
    static let sizes = (0..<6).map { 3000 + 700 * $0 } + [9000]

    /// A repo synced to version 1, and the stamps that sync saved: one per object.
    static func syncedWithStamps() throws -> (ClientFixture, ObjectStamps) {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let stamps = ObjectStamps.parse(try fixture.dir.read("repo/stamps"))
        #expect(stamps.count == 7)
        return (fixture, stamps)
    }

    /// A repo synced to version 1, and its folder.
    static func synced() throws -> (ClientFixture, folder: String) {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        return (fixture, fixture.dir.at(fixture.bundleFolder(1)))
    }

    /// Flips the first byte of the object of `file` in place (its inode kept): its sha
    /// and the object's path.
    static func flipFirstByte(of file: String, in fixture: ClientFixture) throws -> (sha: String, object: String) {
        let sha = try #require(fixture.manifest(1).files[file]?.sha)
        let object = fixture.dir.at("repo/objects/" + sha)
        var bytes = try fixture.dir.read("repo/objects/" + sha)
        bytes[0] ^= 0xFF
        #expect(chmod(object, 0o644) == 0)
        try Data(bytes).write(to: URL(fileURLWithPath: object))
        return (sha, object)
    }

    @Test func aHealthyFolderIsCountedAndJudgedSound() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let status = try #require(try fixture.repo.status().first)
        #expect(status.files == 7 && status.bytesOnDisk == Int64(Self.sizes.reduce(0, +)))
        #expect(status.health?.damagedFiles == [] && status.health?.folderPath == fixture.dir.at(fixture.bundleFolder(1)))
        #expect(!fixture.dir.exists("repo/damage.json"))
    }

    /// Each kind of damage is reported and recorded; a file the version does not have is
    /// counted, not judged; the next sync puts back exactly the version.
    @Test func filesReplacedByALinkOrAFolderAreDamagedAndAStrayFileIsCounted() throws {
        let (fixture, folder) = try Self.synced()
        #expect(unlink(folder + "/photos/1.jpg") == 0 && symlink("0.jpg", folder + "/photos/1.jpg") == 0)
        #expect(unlink(folder + "/photos/2.jpg") == 0)
        try fixture.dir.write(fixture.bundleFolder(1) + "/photos/2.jpg/inside", "12345")
        #expect(unlink(folder + "/photos/5.jpg") == 0)
        try fixture.dir.write(fixture.bundleFolder(1) + "/stray.txt", "abc")

        let status = try #require(try fixture.repo.status().first)
        #expect(status.health?.damagedFiles == ["photos/1.jpg", "photos/2.jpg", "photos/5.jpg"])
        // 0, 3, 4 and words.json, with the file inside the folder and the stray one.
        #expect(status.files == 6)
        #expect(status.bytesOnDisk == Int64(Self.sizes[0] + Self.sizes[3] + Self.sizes[4] + Self.sizes[6] + 5 + 3))
        #expect(try fixture.dir.read("repo/damage.json") == Array(#"{"folders":["com.example.app.B-1"],"format":1}"#.utf8))

        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired, "\(fixture.failure(report))")
        #expect(report.bundles.first?.damagedFiles == ["photos/1.jpg", "photos/2.jpg", "photos/5.jpg"])
        #expect(try fixture.bundleMatchesSource(1))
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
    }

    /// A folder judged a few files at a time finds the same damage, in path order, whatever
    /// the batch: files missing, replaced by a link or a folder, or edited through a link,
    /// at either end of a batch or alone in one.
    @Test(arguments: [1, 2, 3, 6, 7, 100])
    func damageIsFoundAcrossBatches(batchSize: Int) throws {
        let (fixture, folder) = try Self.synced()
        // In path order: lessons/words.json, photos/0.jpg ... photos/5.jpg.
        #expect(unlink(folder + "/lessons/words.json") == 0)
        #expect(unlink(folder + "/photos/1.jpg") == 0 && symlink("0.jpg", folder + "/photos/1.jpg") == 0)
        #expect(unlink(folder + "/photos/2.jpg") == 0)
        try fixture.dir.write(fixture.bundleFolder(1) + "/photos/2.jpg/inside", "12345")
        let sha = try #require(fixture.manifest(1).files["photos/5.jpg"]?.sha)
        let object = fixture.dir.at("repo/objects/" + sha)
        #expect(chmod(object, 0o644) == 0)
        try Data(SampleContent.noise(Self.sizes[5], seed: 99)).write(to: URL(fileURLWithPath: object))
        try fixture.dir.write(fixture.bundleFolder(1) + "/photos/4.jpg.stray", "abc")

        let status = try #require(try fixture.repo.status(batchSize: batchSize).first)
        #expect(status.health?.damagedFiles == ["lessons/words.json", "photos/1.jpg", "photos/2.jpg", "photos/5.jpg"])
        // 0, 3, 4 and 5 (its bytes changed, not its size), the file inside the folder and the stray one.
        #expect(status.files == 6)
        #expect(status.bytesOnDisk == Int64(Self.sizes[0] + Self.sizes[3] + Self.sizes[4] + Self.sizes[5] + 5 + 3))
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))
        #expect(try fixture.repo.status(batchSize: batchSize).first?.health?.isHealthy == true)
    }

    /// Stamps in a file torn or of another format vouch for nothing: every file is
    /// hashed, and damage that a sound file's stamp would hide (an object's bytes changed,
    /// its times set back as a failing disk leaves them) is found.
    @Test(arguments: ["torn", "foreign"])
    func stampsThatCannotBeReadAreNeverTrusted(kind: String) throws {
        let (fixture, _) = try Self.syncedWithStamps()
        let (sha, object) = try Self.flipFirstByte(of: "photos/3.jpg", in: fixture)
        // Restamped: the stamps now vouch for the damaged bytes.
        var stamps = ObjectStamps.parse(try fixture.dir.read("repo/stamps")).entries.map { ($0.0, $0.1) }
        let i = try #require(stamps.firstIndex { $0.0.hex == sha })
        var info = stat()
        #expect(lstat(object, &info) == 0)
        stamps[i].1 = ObjectStamp(
            size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec), inode: UInt64(info.st_ino))
        try ObjectStamps(stamps).save(in: fixture.repo)
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)

        let good = try fixture.dir.read("repo/stamps")
        try fixture.dir.write("repo/stamps", kind == "torn" ? Array(good.dropLast(7)) : Array("ZSTAMPS9".utf8) + good.dropFirst(8))
        #expect(try fixture.repo.status(batchSize: 2).first?.health?.damagedFiles == ["photos/3.jpg"])
        // What it hashed and found sound is stamped afresh; the damaged object is not.
        let saved = ObjectStamps.parse(try fixture.dir.read("repo/stamps"))
        #expect(saved.count == 6 && saved[sha] == nil)
    }

    /// `repo verify` reads the kept manifest as a stream, its files judged as they are
    /// parsed; one that does not list them in path order (zinc writes them in order) is
    /// read whole instead, and the same damage found.
    @Test(arguments: [false, true])
    func verifyJudgesByTheManifestInAnyOrder(reversed: Bool) throws {
        let (fixture, folder) = try Self.synced()
        #expect(unlink(folder + "/photos/4.jpg") == 0)
        try fixture.dir.write(fixture.bundleFolder(1) + "/photos/0.jpg.stray", "abc")
        if reversed {
            guard case .object(let top) = try fixture.manifest(1).json(), case .object(let files)? = top["files"] else {
                Issue.record("no files")
                return
            }
            let listed = files.keys.sorted().reversed().map { #""\#($0)":"# + String(decoding: files[$0]!.encoded(), as: UTF8.self) }
            let json = #"{"bundle":"B","catalog":"com.example.app","files":{"# + listed.joined(separator: ",") + #"},"version":1}"#
            try fixture.dir.write("repo/manifests/com.example.app/B-1.json", json)
        }
        #expect(try fixture.repo.verify().map(\.damagedFiles) == [["photos/4.jpg"]])
    }

    /// Damage written through another hard link to an object (here its name in
    /// objects/) changes the file's times too, so the walk's stat finds it.
    @Test func damageThroughAnotherLinkIsFound() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        let sha = try #require(fixture.manifest(1).files["photos/3.jpg"]?.sha)
        let object = fixture.dir.at("repo/objects/" + sha)
        #expect(chmod(object, 0o644) == 0)
        try Data(SampleContent.noise(Self.sizes[3], seed: 99)).write(to: URL(fileURLWithPath: object))
        #expect(try fixture.repo.status().first?.health?.damagedFiles == ["photos/3.jpg"])
        let report = try fixture.sync()
        #expect(report.bundles.first?.outcome == .repaired && report.bundles.first?.damagedObjects.map(\.hex) == [sha])
        #expect(try fixture.bundleMatchesSource(1))
    }

    /// A repo copied with new inodes (`cp -a`) has no stamp that vouches for its objects:
    /// the first `status` hashes them and saves their stamps, as a sync would, so the
    /// next one hashes nothing; a `status` that hashed nothing leaves the file as it is.
    @Test func statusSavesTheStampsOfWhatItHashed() throws {
        let (fixture, synced) = try Self.syncedWithStamps()
        // Stamps of other inodes: what a copy of the repo holds.
        let copied = synced.entries.map { digest, stamp in
            (digest, ObjectStamp(size: stamp.size, modified: stamp.modified, changed: stamp.changed, inode: stamp.inode &+ 1))
        }
        try ObjectStamps(copied).save(in: fixture.repo)

        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
        let saved = try fixture.dir.read("repo/stamps")
        #expect(ObjectStamps.parse(saved) == synced)

        var before = stat()
        #expect(lstat(fixture.dir.at("repo/stamps"), &before) == 0)
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
        var after = stat()
        #expect(lstat(fixture.dir.at("repo/stamps"), &after) == 0)
        #expect(after.st_ino == before.st_ino)
        #expect(try fixture.dir.read("repo/stamps") == saved)
    }

    /// A repo synced by an earlier client has `stamps.json`: its stamps are believed (a
    /// byte changed behind a stamp kept as it was goes unseen, as it does with `stamps`),
    /// and written to `stamps` by the first check that reads them, which removes it.
    @Test func stampsOfAnEarlierClientAreReadThenReplaced() throws {
        let (fixture, stamps) = try Self.syncedWithStamps()
        var objects = [String: JSONValue]()
        for (digest, stamp) in stamps.entries {
            objects[digest.hex] = .array([
                .int(stamp.size), .int(stamp.modified), .int(stamp.changed), .int(Int64(bitPattern: stamp.inode)),
            ])
        }
        #expect(unlink(fixture.dir.at("repo/stamps")) == 0)

        // Silent damage, and the old file restamped as a failing disk would leave it.
        let (sha, object) = try Self.flipFirstByte(of: "photos/0.jpg", in: fixture)
        var info = stat()
        #expect(lstat(object, &info) == 0)
        let nanoseconds = { (t: timespec) in JSONValue.int(Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)) }
        objects[sha] = .array([.int(Int64(info.st_size)), nanoseconds(info.st_mtim), nanoseconds(info.st_ctim), .int(Int64(info.st_ino))])
        try fixture.dir.write("repo/stamps.json", JSONValue.object(["format": .int(1), "objects": .object(objects)]).encoded())
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
        #expect(!fixture.dir.exists("repo/stamps.json"))
        let converted = ObjectStamps.parse(try fixture.dir.read("repo/stamps"))
        #expect(converted.count == 7 && converted[sha]?.changed == Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
        #expect(ObjectStamps.load(from: fixture.repo) == converted)

        #expect(try fixture.repo.verify().map(\.damagedFiles) == [["photos/0.jpg"]])
        let written = ObjectStamps.parse(try fixture.dir.read("repo/stamps"))
        #expect(written.count == 6 && written[sha] == nil)
    }

    @Test func stampsRoundTripAndATornOrUnsortedFileIsEmpty() throws {
        let fixture = try ClientFixture()
        let shas = ["ff", "00", "7a"].map { String(repeating: $0, count: 20) }
        let entries = shas.enumerated().map { i, sha in
            (SHA1.Digest(hex: sha)!, ObjectStamp(size: Int64(i), modified: -1, changed: 1 << 62, inode: UInt64.max - UInt64(i)))
        }
        try ObjectStamps(entries).save(in: fixture.repo)
        let bytes = try fixture.dir.read("repo/stamps")
        #expect(bytes.count == 8 + 3 * 52 && bytes.starts(with: Array("ZSTAMPS1".utf8)))
        let read = ObjectStamps.parse(bytes)
        #expect(read.count == 3 && read == ObjectStamps(entries.reversed()))
        #expect(read[shas[2]] == entries[2].1 && read[String(repeating: "11", count: 20)] == nil)
        #expect(ObjectStamps.parse(Array(bytes.dropLast())).count == 0)
        // The first two records swapped.
        let swapped = bytes[..<8] + bytes[60..<112] + bytes[8..<60] + bytes[112...]
        #expect(ObjectStamps.parse(Array(swapped)).count == 0)
        #expect(ObjectStamps.parse(Array("ZSTAMPS1".utf8)).count == 0)
    }

    /// The stamps are written 64 KiB at a time, never as one array of the file's bytes:
    /// a file of several pieces holds every record once, in digest order.
    @Test func stampsOfManyObjectsAreWrittenWholeInPieces() throws {
        let fixture = try ClientFixture()
        let entries = (0..<3_000).map { i in
            (SHA1.digest(Array("object \(i)".utf8)), ObjectStamp(size: Int64(i), modified: 1, changed: 2, inode: UInt64(i)))
        }
        try ObjectStamps(entries).save(in: fixture.repo)
        let bytes = try fixture.dir.read("repo/stamps")
        #expect(bytes.count == 8 + 3_000 * 52)
        let read = ObjectStamps.parse(bytes)
        #expect(read == ObjectStamps(entries) && read.count == 3_000)
        #expect(read[entries[2_999].0.hex] == entries[2_999].1)
    }
}
