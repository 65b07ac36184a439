import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// Storing one object: the format rule, what lands in `objects/`, and lookups.
@Suite struct ObjectStoreTests {
    let dir: TemporaryDirectory
    let store: ObjectStore

    init() throws {
        dir = try TemporaryDirectory()
        store = ObjectStore(storage: FileStorage(root: dir.at("cat")), config: .standard)
    }

    func objectPath(_ sha: String) -> String {
        "objects/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha)"
    }

    @Test func namesBuiltFromADigestAreTheSpelledOutOnes() throws {
        let shas =
            (0..<300).map { SHA1.hash(Array("\($0)".utf8)) }
            + ["0000000000000000000000000000000000000000", "ffffffffffffffffffffffffffffffffffffffff"]
        for sha in shas {
            let digest = try #require(SHA1.Digest(hex: sha))
            for format in ObjectFormat.allCases {
                #expect(StoredObject.path(digest: digest, format: format) == objectPath(sha) + format.suffix)
                #expect(StoredObject.path(sha: sha, format: format) == objectPath(sha) + format.suffix)
                let object = StoredObject(digest: digest, sizes: .only(format, 7))
                #expect(object.fileName == sha + format.suffix)
                #expect(object.preferredPath == objectPath(sha) + format.suffix)
                #expect(object.formats == [format: 7])
            }
            #expect(StoredObject.shard(of: digest) == String(sha.prefix(2)))
        }
    }

    @Test func foldersLikelyMissingAreCreatedFirstAndEitherGuessIsSafe() throws {
        let storage = FileStorage(root: dir.at("cat"))
        func put(_ path: String) throws {
            #expect(try storage.write(Array(path.utf8), to: path, .ifAbsent) == .written)
        }
        try put("objects/ab/cd/one")
        #expect(storage.parentIsLikelyMissing(of: "objects/ab/ef/two"))
        #expect(!storage.parentIsLikelyMissing(of: "objects/ab/cd/three"))
        #expect(!storage.parentIsLikelyMissing(of: "objects/zz/yy/four"))
        // Another writer made the folder meanwhile: creating it again is accepted.
        try FileManager.default.createDirectory(atPath: dir.at("cat/objects/ab/ef"), withIntermediateDirectories: false)
        try put("objects/ab/ef/two")
        // A folder this storage made, removed since (by `clean`, say): made again.
        try FileManager.default.removeItem(atPath: dir.at("cat/objects/ab/cd"))
        try put("objects/ab/cd/three")
        try put("objects/zz/yy/four")
        for path in ["objects/ab/ef/two", "objects/ab/cd/three", "objects/zz/yy/four"] {
            #expect(FileManager.default.contents(atPath: dir.at("cat/" + path)) == Data(path.utf8))
        }
    }

    @Test func smallFilesGoStraightToTheirFinalFormat() throws {
        let noise = SampleContent.noise(20_000, seed: 4), text = SampleContent.text(20_000)
        let stored = try [noise, text].enumerated().map { i, content in
            let path = try dir.write("src/\(i)", content)
            return try store.store(localPath: path, sha: sha1Hex(content), stamp: stamp(path))
        }
        #expect(stored[0].formats == [.raw: 20_000])
        let gz = try dir.read("cat/" + objectPath(sha1Hex(text)) + ".gz")
        #expect(stored[1].formats == [.gz: Int64(gz.count)])
        #expect(try GzipDecompressor.decompress(gz) == text)
        // One file per object and nothing else: no temporaries, no second format.
        #expect(dir.files(under: "cat") == [objectPath(sha1Hex(noise)), objectPath(sha1Hex(text)) + ".gz"].sorted())
    }

    func stamp(_ path: String) throws -> FileStamp {
        try FileStamp(of: PosixFile.open(path))
    }

    @Test func aFileThatChangedSinceItWasScannedIsRefused() throws {
        // Held whole, deflated in blocks, copied raw.
        for (name, content) in [
            ("small", SampleContent.text(3000)), ("text", SampleContent.text(2_000_000)),
            ("noise", SampleContent.noise(2_000_000, seed: 3)),
        ] {
            let path = try dir.write("src/\(name)", content)
            let now = try stamp(path)
            let shorter = FileStamp(
                size: now.size - 1, mtimeNanoseconds: now.mtimeNanoseconds,
                ctimeNanoseconds: now.ctimeNanoseconds, inode: now.inode, device: now.device)
            // Rewritten after the scan with as many bytes: only its times tell.
            let rewritten = FileStamp(
                size: now.size, mtimeNanoseconds: now.mtimeNanoseconds - 1_000_000_000,
                ctimeNanoseconds: now.ctimeNanoseconds - 1_000_000_000, inode: now.inode, device: now.device)
            for seen in [shorter, rewritten] {
                #expect(throws: ZincError.sourceProblem(path: path, reason: "the file changed while it was being imported")) {
                    try store.store(localPath: path, sha: sha1Hex(content), stamp: seen)
                }
            }
        }
        #expect(dir.files(under: "cat").isEmpty)
    }

    @Test func largeFilesAreDeflatedToTheSameBytesOnAnyNumberOfThreads() throws {
        let text = SampleContent.text(3_000_000), sha = sha1Hex(text)
        let path = try dir.write("src/text", text)
        var objects = [[UInt8]]()
        for workers in [1, 2, 5] {
            let store = ObjectStore(storage: FileStorage(root: dir.at("cat\(workers)")), config: .standard)
            let stored = try store.store(localPath: path, sha: sha, stamp: stamp(path), workers: workers)
            let gz = try dir.read("cat\(workers)/" + objectPath(sha) + ".gz")
            #expect(stored.formats == [.gz: Int64(gz.count)])
            #expect(try GzipDecompressor.decompress(gz) == text)
            objects.append(gz)
        }
        #expect(objects.allSatisfy { $0 == objects[0] })
    }

    @Test func hugeDeflatesCanBeLeftForLater() throws {
        let huge = SampleContent.text(Int(ObjectStore.deflateOnAllCoresFrom)), large = SampleContent.text(1_500_000)
        let noise = SampleContent.noise(Int(ObjectStore.deflateOnAllCoresFrom), seed: 8)
        var stored = [String]()
        for (name, content) in [("huge", huge), ("large", large), ("noise", noise)] {
            let path = try dir.write("src/\(name)", content)
            if let object = try store.storeOrDefer(localPath: path, sha: sha1Hex(content), stamp: stamp(path)) {
                stored.append(name + ":" + object.formats.keys.map(\.rawValue).joined())
            }
        }
        #expect(stored == ["large:gz", "noise:raw"])
        #expect(dir.files(under: "cat") == [objectPath(sha1Hex(large)) + ".gz", objectPath(sha1Hex(noise))].sorted())
    }

    @Test func aShardSnapshotSparesLookupsButNeverHidesAStoredObject() throws {
        let storage = MemoryStorage()
        let store = ObjectStore(storage: storage, config: .standard)
        let noise = SampleContent.noise(5000, seed: 6), sha = sha1Hex(noise)
        let source = try dir.write("src/n", noise)
        let snapshot = try store.withShardSnapshot()
        // Another writer stores the same object after the snapshot: it is taken as it is.
        try storage.write(Array("theirs".utf8), to: objectPath(sha))
        #expect(try snapshot.lookup(sha: sha) == nil)
        #expect(try snapshot.store(localPath: source, sha: sha, stamp: stamp(source)).formats == [.raw: 6])
        #expect(try storage.read(objectPath(sha)) == Array("theirs".utf8))
        // A snapshot taken now sees the shard and finds the object.
        #expect(try store.withShardSnapshot().lookup(sha: sha)?.formats == [.raw: 6])
    }
}
