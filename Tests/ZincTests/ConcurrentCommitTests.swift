import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Races between writers on a backend with no lock at all (what an object store is),
/// each interleaving forced step by step: a writer is held just before its commit to
/// the index while another runs, then let go.
@Suite struct ConcurrentCommitTests {
    let dir: TemporaryDirectory
    let storage = MemoryStorage()
    let catalog: Catalog
    let gate = IndexCommitGate()

    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.race", in: storage)
        for i in 0..<5 { try dir.write("base/f\(i).json", SampleContent.text(2000 + i, word: "base\(i)")) }
        for name in ["a", "b"] {
            for i in 0..<5 { try dir.write("\(name)/f\(i).json", SampleContent.text(2000 + i, word: i < 2 ? "base\(i)" : "\(name)\(i)")) }
            try dir.write("\(name)/own.bin", SampleContent.noise(3000, seed: name == "a" ? 1 : 2))
        }
        #expect(try catalog.updateBundle("B", from: dir.at("base")) == .created(version: 1))
        storage.beforeCommit = { [gate] path, bytes in gate.reached(path, bytes) }
    }

    /// Imports `source` on a thread of its own; the result arrives through the returned box.
    func startImport(_ source: String) -> ImportBox {
        let box = ImportBox()
        let catalog = self.catalog, path = dir.at(source)
        Thread.detachNewThread {
            box.set(Result { try catalog.updateBundle("B", from: path, options: BundleImportOptions(workers: 1)) })
        }
        return box
    }

    /// Imports `source` on a thread of its own, holds it just before the index commit that
    /// would list `version`, runs `meanwhile`, then lets it go.
    func importHeld(listing version: Int, _ source: String, meanwhile: () throws -> Void) throws -> ImportBox {
        gate.hold(whenListing: version)
        let box = startImport(source)
        gate.waitUntilHeld(version)
        defer { gate.release(version) }
        try meanwhile()
        return box
    }

    func versionFiles(_ version: Int) -> [String] {
        storage.paths.filter { $0.hasPrefix("manifests/B-\(version).") || $0.hasPrefix("archives/B-\(version)") }
    }

    @Test func aVersionReservedBelowOneCommittedFirstIsRenumbered() throws {
        // A reserves 2 and is held before adding it; meanwhile B reserves 3 and commits it.
        let a = try importHeld(listing: 2, "a") {
            let b = try catalog.updateBundle("B", from: dir.at("b"))
            #expect(b == .created(version: 3))
        }
        // Committing 2 below 3 would change 3's LMFO order after the fact: A becomes 4.
        #expect(try a.wait() == .created(version: 4))
        #expect(try catalog.index().bundles["B"]?.versions == [1, 3, 4])
        #expect(versionFiles(2).isEmpty, "the files written under the abandoned number are gone")
        #expect(try catalog.manifest(bundle: "B", version: 4).files["own.bin"]?.sha == sha1Hex(try dir.read("a/own.bin")))
        #expect(try catalog.manifest(bundle: "B", version: 3).files["own.bin"]?.sha == sha1Hex(try dir.read("b/own.bin")))
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    @Test func archivesAreRebuiltWhenAVersionBelowCommitsMeanwhile() throws {
        // A reserves 2, B reserves 3 (ordering its archive over version 1 alone); both held.
        gate.hold(whenListing: 2)
        let a = startImport("a")
        gate.waitUntilHeld(2)
        gate.hold(whenListing: 3)
        let b = startImport("b")
        gate.waitUntilHeld(3)
        gate.release(2)
        #expect(try a.wait() == .created(version: 2))
        gate.release(3)
        #expect(try b.wait() == .created(version: 3))
        #expect(try catalog.index().bundles["B"]?.versions == [1, 2, 3])
        #expect(try CatalogVerification(catalog).run().problems.isEmpty, "every archive in LMFO order over the versions that exist")

        // Byte for byte what one writer after the other writes.
        let sequential = try Catalog.create(id: "com.example.race", in: MemoryStorage())
        for source in ["base", "a", "b"] { _ = try sequential.updateBundle("B", from: dir.at(source)) }
        for path in ["archives/B-2.tar", "archives/B-3.tar", "manifests/B-3.json"] {
            #expect(try storage.read(path) == sequential.storage.read(path), "\(path) differs from a sequential import")
        }
    }

    @Test func twoImportsOfTheSameFilesMakeOneVersion() throws {
        let a = try importHeld(listing: 2, "a") {
            let same = try catalog.updateBundle("B", from: dir.at("a"))
            #expect(same == .created(version: 3))
        }
        #expect(try a.wait() == .unchanged(version: 3))
        #expect(try catalog.index().bundles["B"]?.versions == [1, 3])
        #expect(versionFiles(2).isEmpty)
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    @Test func aVersionDeletedBelowAnImportInFlightReordersItsArchive() throws {
        #expect(try catalog.updateBundle("B", from: dir.at("b")) == .created(version: 2))
        let a = try importHeld(listing: 3, "a") {
            let deletion = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
            #expect(deletion.versions == [1])
        }
        #expect(try a.wait() == .created(version: 3))
        #expect(try catalog.index().bundles["B"]?.versions == [2, 3])
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    @Test func anIndexListingAVersionTwiceIsNeverWrittenAndVerifySeesOne() throws {
        #expect(throws: ZincError.duplicateIndexVersion(bundle: "B", version: 1)) {
            try catalog.updateIndex { $0.bundles["B"]!.versions = [1, 1] }
        }
        // One written by another tool.
        let json = Array(
            #"{"bundles":{"B":{"distributions":{},"next_version":1,"versions":[1,1]}},"format":"1","id":"com.example.race"}"#.utf8)
        for name in CatalogIndex.fileNames { try storage.write(name.hasSuffix(".gz") ? GzipCompressor.compress(json) : json, to: name) }
        #expect(
            try CatalogVerification(catalog).run().problems.map(\.description) == [
                "catalog.json: version 1 of 'B' is listed more than once"
            ])
    }
}

/// Holds the writer whose commit to `catalog.json` would first list a given version of
/// bundle B (its commit, not its reservation), until released.
final class IndexCommitGate: @unchecked Sendable {
    private let lock = NSLock()
    private var holds = [Int: (held: DispatchSemaphore, release: DispatchSemaphore)]()

    func hold(whenListing version: Int) {
        lock.withLock { holds[version] = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)) }
    }

    func waitUntilHeld(_ version: Int) {
        lock.withLock { holds[version]!.held }.wait()
    }

    func release(_ version: Int) {
        lock.withLock { holds.removeValue(forKey: version)! }.release.signal()
    }

    func reached(_ path: String, _ bytes: [UInt8]) {
        guard path == "catalog.json", let listed = try? CatalogIndex.parse(bytes, path: path).bundles["B"]?.versions else { return }
        let hold = lock.withLock { holds.first { listed.contains($0.key) }?.value }
        guard let hold else { return }
        hold.held.signal()
        hold.release.wait()
    }
}

final class ImportBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<BundleUpdateResult, Error>?

    func set(_ result: Result<BundleUpdateResult, Error>) {
        self.result = result
        done.signal()
    }

    func wait() throws -> BundleUpdateResult {
        done.wait()
        return try result!.get()
    }
}
