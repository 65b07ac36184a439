import Foundation
import Testing
@testable import Zinc
import ZincTestSupport

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

    @Test func smallFilesGoStraightToTheirFinalFormat() throws {
        let noise = SampleContent.noise(20_000, seed: 4), text = SampleContent.text(20_000)
        let stored = try [noise, text].enumerated().map { i, content in
            try store.store(localPath: dir.write("src/\(i)", content), sha: sha1Hex(content), size: Int64(content.count))
        }
        #expect(stored[0].formats == [.raw: 20_000])
        let gz = try dir.read("cat/" + objectPath(sha1Hex(text)) + ".gz")
        #expect(stored[1].formats == [.gz: Int64(gz.count)])
        #expect(try GzipDecompressor.decompress(gz) == text)
        // One file per object and nothing else: no temporaries, no second format.
        #expect(dir.files(under: "cat") == [objectPath(sha1Hex(noise)), objectPath(sha1Hex(text)) + ".gz"].sorted())
    }

    @Test func aFileThatChangedSinceItWasHashedIsRefused() throws {
        for size in [3000, 2_000_000] {
            let content = SampleContent.text(size)
            let path = try dir.write("src/f\(size)", content)
            #expect(throws: ZincError.sourceProblem(path: path, reason: "the file changed while it was being imported")) {
                try store.store(localPath: path, sha: sha1Hex(content), size: Int64(size - 1))
            }
        }
        #expect(dir.files(under: "cat").isEmpty)
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
        #expect(try snapshot.store(localPath: source, sha: sha, size: 5000).formats == [.raw: 6])
        #expect(try storage.read(objectPath(sha)) == Array("theirs".utf8))
        // A snapshot taken now sees the shard and finds the object.
        #expect(try store.withShardSnapshot().lookup(sha: sha)?.formats == [.raw: 6])
    }
}
