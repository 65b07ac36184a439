import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// The object stamps looked up in their file (`ObjectStampsFile`), as every check reads
/// them: the same stamps a load gives, each found in its stretch of 64 records, from a
/// cursor in any order, and every one given in order, and none from a file a load takes
/// for an empty one (torn, unsorted, of another format, a negative size).
@Suite struct ObjectStampsFileTests {
    /// `count` stamps, of the digests 2, 4, 6, ... (odd ones are between them).
    static func stamps(_ count: Int) -> [(SHA1.Digest, ObjectStamp)] {
        (0..<count).map { i in
            (digest(2 * i + 2), ObjectStamp(size: Int64(i), modified: Int64(i) * 7, changed: -Int64(i), inode: UInt64(i) << 40))
        }
    }

    static func digest(_ n: Int) -> SHA1.Digest {
        SHA1.Digest(bytes: [UInt8](repeating: 0, count: 16) + withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) })
    }

    static func repo(in dir: TemporaryDirectory) throws -> Repo { try Repo.initialize(at: dir.at("repo")) }

    @Test(arguments: [0, 1, 63, 64, 65, 200])
    func everyStampIsFoundAndGivenInOrder(count: Int) throws {
        let dir = try TemporaryDirectory()
        let repo = try Self.repo(in: dir)
        #expect(ObjectStampsFile(in: repo) == nil)
        let entries = Self.stamps(count)
        try ObjectStamps(entries).save(in: repo)
        let file = try #require(ObjectStampsFile(in: repo))
        #expect(file.count == count)
        for (digest, stamp) in entries { #expect(file[digest] == stamp, "\(digest.hex)") }
        for n in [0, 1, 2 * count + 1, 2 * count + 2, 3] where n % 2 == 1 || n == 0 || n > 2 * count {
            #expect(file[Self.digest(n)] == nil, "\(n)")
        }
        let given = Array(file.entries)
        #expect(given.map(\.0) == entries.map(\.0) && given.map(\.1) == entries.map(\.1))
        let recorded = RecordedStamps.read(from: repo)
        guard case .file = recorded else {
            Issue.record("not looked up in the file")
            return
        }
        #expect(recorded.entries.map(\.0) == ObjectStamps.load(from: repo).entries.map(\.0))
    }

    /// `count` stamps saved in a repo in `dir`: the file they are looked up in, and what a
    /// load of them gives.
    static func saved(_ count: Int, in dir: TemporaryDirectory) throws -> (ObjectStampsFile, ObjectStamps) {
        let repo = try repo(in: dir)
        try ObjectStamps(stamps(count)).save(in: repo)
        return (try #require(ObjectStampsFile(in: repo)), ObjectStamps.load(from: repo))
    }

    /// Lookups one at a time from a cursor, as a check judges a version's objects: in
    /// digest order, every one or a scattered few, and in any order, each gets the stamp a
    /// load gives, whether the cursor reads ahead or jumps.
    @Test(arguments: [1, 64, 3_000])
    func lookupsFromACursorGiveTheLoadedStamps(count: Int) throws {
        let dir = try TemporaryDirectory()
        let (file, loaded) = try Self.saved(count, in: dir)
        let every = Array(0...(2 * count + 3))
        var generator = SystemRandomNumberGenerator()
        for order in [every, every.filter { $0 % 97 == 0 || $0 % 1_000 == 2 }, every.shuffled(using: &generator), every.reversed()] {
            var cursor = ObjectStampsFile.Cursor()
            for n in order {
                let digest = Self.digest(n)
                #expect(file.stamp(of: digest, cursor: &cursor) == loaded[digest], "\(n)")
            }
        }
    }

    /// Digests looked up in ascending order, a batch at a time as `status` looks them up:
    /// each given its stamp or none, in order, whether the batch covers the whole file
    /// (every stretch, across the 64 KiB reads) or a few scattered digests.
    @Test(arguments: [0, 1, 64, 65, 3_000])
    func aBatchInDigestOrderIsLookedUpInOnePass(count: Int) throws {
        let dir = try TemporaryDirectory()
        let (file, loaded) = try Self.saved(count, in: dir)
        for batch in [Array(0...(2 * count + 3)), [0, 3, 2 * count, 2 * count + 2, 2 * count + 3], [1_001, 1_002, 5_000, 5_000]].map({
            $0.sorted()
        }) {
            let digests = batch.map(Self.digest)
            var given = [ObjectStamp?]()
            file.forEachStamp(of: digests) { given.append($0) }
            #expect(given == digests.map { loaded[$0] }, "\(batch.prefix(8))")
            let recorded = RecordedStamps.loaded(loaded)
            var fromLoaded = [ObjectStamp?]()
            recorded.forEachStamp(of: digests) { fromLoaded.append($0) }
            #expect(fromLoaded == given)
        }
    }

    /// A file a load takes for an empty one is one here too.
    @Test func aFileALoadRefusesHoldsNoStamp() throws {
        let dir = try TemporaryDirectory()
        let repo = try Self.repo(in: dir)
        try ObjectStamps(Self.stamps(100)).save(in: repo)
        let good = try dir.read("repo/stamps")
        var unsorted = good
        // The second record's digest made the first's: not after it.
        unsorted.replaceSubrange((8 + 52)..<(8 + 52 + 20), with: good[8..<28])
        var negative = good
        negative[8 + 52 * 70 + 27] = 0x80
        var magic = good
        magic[0] = UInt8(ascii: "X")
        for (name, bytes) in [
            ("torn", Array(good.dropLast(3))), ("unsorted", unsorted), ("a negative size", negative), ("another magic", magic),
            ("empty", []),
        ] {
            try dir.write("repo/stamps", bytes)
            #expect(ObjectStamps.load(from: repo).count == 0, "\(name)")
            let file = try #require(ObjectStampsFile(in: repo), "\(name)")
            #expect(file.count == 0 && Array(file.entries).isEmpty && file[Self.digest(2)] == nil, "\(name)")
            var given = [ObjectStamp?]()
            file.forEachStamp(of: [Self.digest(2), Self.digest(4)]) { given.append($0) }
            #expect(given == [nil, nil], "\(name)")
        }
    }

    /// An earlier client's `stamps.json` is converted to `stamps` once, then looked up in
    /// that file.
    @Test func legacyStampsAreConvertedAndLookedUpInTheirFile() throws {
        let dir = try TemporaryDirectory()
        let repo = try Self.repo(in: dir)
        let sha = Self.digest(2).hex
        try dir.write("repo/stamps.json", Array(#"{"format":1,"objects":{"\#(sha)":[5,6,7,8]}}"#.utf8))
        let recorded = RecordedStamps.read(from: repo)
        guard case .file(let file) = recorded else {
            Issue.record("not looked up in the file")
            return
        }
        #expect(file[Self.digest(2)] == ObjectStamp(size: 5, modified: 6, changed: 7, inode: 8))
        #expect(dir.exists("repo/stamps") && !dir.exists("repo/stamps.json"))
    }
}
