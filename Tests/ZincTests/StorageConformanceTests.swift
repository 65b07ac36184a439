import Foundation
import Testing
import Zinc
import ZincTestSupport

/// What every `CatalogStorage` backend must do, run against each of them; and the
/// catalog operations on a backend without filesystem semantics, which is what a
/// remote backend will be.
@Suite struct StorageConformanceTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case file, memory
        var testDescription: String { rawValue }
    }

    /// A fresh, empty storage (and the folder that must outlive it, for files).
    func make(_ backend: Backend) throws -> (CatalogStorage, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        switch backend {
        case .file: return (FileStorage(root: dir.at("store")), dir)
        case .memory: return (MemoryStorage(), dir)
        }
    }

    @Test(arguments: Backend.allCases)
    func writesReadsListsAndDeletes(_ backend: Backend) throws {
        let (storage, _) = try make(backend)
        #expect(try storage.read("objects/ab/cd/x") == nil)
        #expect(try storage.size(of: "objects/ab/cd/x") == nil)
        try storage.write(Array("hello".utf8), to: "objects/ab/cd/x")
        try storage.write(Array("other".utf8), to: "manifests/B-1.json")
        #expect(try storage.read("objects/ab/cd/x") == Array("hello".utf8))
        #expect(try storage.size(of: "objects/ab/cd/x") == 5)
        #expect(try storage.list("objects") == ["objects/ab/cd/x"])
        var streamed = [UInt8]()
        try #require(try storage.openForReading("manifests/B-1.json")).forEachChunk(chunkSize: 2) { streamed += $0 }
        #expect(streamed == Array("other".utf8))
        try storage.delete("objects/ab/cd/x")
        try storage.delete("objects/ab/cd/x")  // deleting what is gone is fine
        #expect(try storage.list("objects") == [])
    }

    @Test(arguments: Backend.allCases)
    func honoursWriteConditions(_ backend: Backend) throws {
        let (storage, _) = try make(backend)
        #expect(try storage.write([1], to: "f", .ifAbsent) == .written)
        #expect(try storage.write([2], to: "f", .ifAbsent) == .conditionFailed)
        #expect(try storage.write([3], to: "f", .ifUnchanged([9])) == .conditionFailed)
        #expect(try storage.read("f") == [1])
        #expect(try storage.write([4], to: "f", .ifUnchanged([1])) == .written)
        #expect(try storage.read("f") == [4])
    }

    @Test(arguments: Backend.allCases)
    func aDiscardedWriterLeavesNothing(_ backend: Backend) throws {
        let (storage, _) = try make(backend)
        let writer = try storage.makeWriter(for: "archives/B-1.tar")
        try writer.write([1, 2, 3])
        writer.discard()
        #expect(try storage.read("archives/B-1.tar") == nil)
        #expect(try storage.list("archives") == [])
    }

    @Test(arguments: Backend.allCases)
    func assemblesPiecesInOrder(_ backend: Backend) throws {
        let (storage, _) = try make(backend)
        try storage.write(Array("AAAA".utf8), to: "objects/a")
        try storage.write(Array("BB".utf8), to: "objects/b")
        let writer = try storage.makeWriter(for: "out")
        try writer.append(pieces: [.bytes([0x2D]), .storedFile(path: "objects/a", size: 4), .bytes([0x2D]),
                                   .storedFile(path: "objects/b", size: 2)], workers: nil)
        try writer.write(Array("!".utf8))
        #expect(try writer.commit(.always) == .written)
        #expect(try storage.read("out") == Array("-AAAA-BB!".utf8))
        let liar = try storage.makeWriter(for: "bad")
        #expect(throws: (any Error).self) { try liar.append(pieces: [.storedFile(path: "objects/b", size: 5)], workers: nil) }
    }

    /// Small and large members mixed, as in an archive of assets: backends may treat
    /// them differently (FileStorage batches small ones and copies large ones in the kernel),
    /// on one thread or several.
    @Test(arguments: Backend.allCases, [1, 3])
    func assemblesLargeAndSmallPiecesAndChecksTheirSizes(_ backend: Backend, workers: Int) throws {
        let (storage, _) = try make(backend)
        let large = SampleContent.noise(700_000, seed: 8), small = SampleContent.text(3000)
        try storage.write(large, to: "objects/large")
        try storage.write(small, to: "objects/small")
        var pieces = [WritePiece]()
        var expected = [UInt8]()
        for i in 0..<600 {  // more than one batch of small pieces
            pieces += [.bytes([UInt8(i % 256)]), .storedFile(path: "objects/small", size: 3000)]
            expected += [UInt8(i % 256)] + small
        }
        pieces += [.storedFile(path: "objects/large", size: 700_000), .bytes([7])]
        expected += large + [7]
        let writer = try storage.makeWriter(for: "out")
        try writer.append(pieces: pieces, workers: workers)
        #expect(writer.bytesWritten == Int64(expected.count))
        #expect(try writer.commit(.always) == .written)
        #expect(try storage.read("out") == expected)
        for (path, claimed) in [("objects/small", 2999), ("objects/small", 3001), ("objects/large", 699_999), ("objects/large", 700_001)] {
            let liar = try storage.makeWriter(for: "bad")
            #expect(throws: WritePieceMismatch.self) {
                try liar.append(pieces: [.bytes([1]), .storedFile(path: path, size: Int64(claimed))], workers: workers)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func listsTheFoldersInAFolder(_ backend: Backend) throws {
        let (storage, _) = try make(backend)
        #expect(try storage.folders(in: "objects") == [])
        try storage.write([1], to: "objects/ab/cd/abcd")
        try storage.write([2], to: "objects/ef/01/ef01")
        try storage.write([3], to: "objects/loose")
        #expect(try storage.folders(in: "objects") == ["ab", "ef"])
        #expect(try storage.folders(in: "objects/ab") == ["cd"])
        #expect(try storage.folders(in: "") == ["objects"])
    }

    @Test func catalogOperationsNeedNothingButTheProtocol() throws {
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.memory", in: storage)
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 1))
        try dir.write("src/extra.json", SampleContent.text(5000))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 2))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .unchanged(version: 2))
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: .latest) == .created(version: 2))

        // The same bytes as on disk: the backend changes nothing about the format.
        let onDisk = try Catalog.create(id: "com.example.memory", in: FileStorage(root: dir.at("cat")))
        try FileManager.default.removeItem(atPath: dir.at("src/extra.json"))
        _ = try onDisk.updateBundle("B", from: dir.at("src"))
        try dir.write("src/extra.json", SampleContent.text(5000))
        _ = try onDisk.updateBundle("B", from: dir.at("src"))
        for path in ["manifests/B-2.json", "archives/B-2.tar", "archives/B-1.tar"] {
            #expect(try storage.read(path) == dir.read("cat/" + path), "\(path) differs")
        }
        #expect(try catalog.verify().problems.isEmpty)
    }
}
