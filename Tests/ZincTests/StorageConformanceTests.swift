import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `StorageConformanceSuite` against every backend; and the catalog operations on a
/// backend without filesystem semantics or locks, which is what a remote backend is.
@Suite struct StorageConformanceTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case file, memory
        /// A memory store behind `ForwardingStorage`, the base of every wrapper: a
        /// requirement it fails to pass on shows here.
        case forwarding
        var testDescription: String { rawValue }
    }

    /// Fresh, empty storages of one backend, in a folder the test keeps until it ends.
    /// The in-memory backend has no lock at all: its import lock is lock objects, on a
    /// policy short enough for a test to wait out.
    func factory(_ backend: Backend, in dir: TemporaryDirectory) -> StorageConformanceSuite.Factory {
        switch backend {
        case .file: return { FileStorage(root: dir.at("store-\(UUID().uuidString)")) }
        case .memory: return { MemoryStorage(lockPolicy: Self.testLockPolicy) }
        case .forwarding: return { ForwardingStorage(wrapping: MemoryStorage(lockPolicy: Self.testLockPolicy)) }
        }
    }

    static let testLockPolicy = LockPolicy(
        staleAfter: .seconds(5), refreshEvery: .milliseconds(500),
        retryEvery: .milliseconds(20), waitAtMost: .seconds(30))

    @Test(arguments: Backend.allCases, StorageConformanceSuite.checkNames)
    func conformance(_ backend: Backend, _ check: String) throws {
        let dir = try TemporaryDirectory()
        try StorageConformanceSuite.run(check, factory(backend, in: dir))
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
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run() == .created(version: 2))

        // The same bytes as on disk: the backend changes nothing about the format.
        // Archives written at import there, by update_distro here: the same bytes.
        let onDisk = try Catalog.create(id: "com.example.memory", in: FileStorage(root: dir.at("cat")))
        try onDisk.setArchivePolicy(.all)
        try FileManager.default.removeItem(atPath: dir.at("src/extra.json"))
        _ = try onDisk.updateBundle("B", from: dir.at("src"))
        try dir.write("src/extra.json", SampleContent.text(5000))
        _ = try onDisk.updateBundle("B", from: dir.at("src"))
        for path in ["manifests/B-2.json", "archives/B-2.tar"] {
            #expect(try storage.read(path) == dir.read("cat/" + path), "\(path) differs")
        }
        #expect(try storage.read("archives/B-1.tar") == nil, "no distribution named version 1")
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }
}
