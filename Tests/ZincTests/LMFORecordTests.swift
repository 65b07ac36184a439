import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The LMFO record's fast path gives exactly the order FORMAT.md defines, whatever the
/// history, and keeps an update's reads constant however long the history grows.
@Suite struct LMFORecordTests {
    /// Random histories: versions made of a random subset of a pool of contents (so
    /// objects leave and come back), with flavors in some, versions deleted, records lost
    /// (as when another tool wrote the catalog). After every import each archive must be
    /// in the order the definition gives over the versions that exist then.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func fastPathEqualsTheDefinition(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let dir = try TemporaryDirectory()
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.lmfo", in: storage)
        let spec = try Flavorspec.parse(Array(#"{"small": ["+ *.txt", "- *"], "big": ["- *.txt", "+ *"]}"#.utf8), source: "spec")
        let pool = (0..<14).map { SampleContent.text(100 + 37 * $0, word: "w\($0)") }
        var existing = [Int]()
        for step in 0..<24 {
            let source = "src\(step)"
            for i in pool.indices where random.next() % 3 != 0 {
                let name = "\(i % 4)/file\(i)" + (i % 3 == 0 ? ".txt" : ".bin")
                try dir.write("\(source)/\(name)", pool[Int(random.next() % UInt64(pool.count))])
            }
            try dir.write("\(source)/always.txt", pool[0])
            let flavored = random.next() % 3 == 0
            let result = try catalog.updateBundle(
                "B", from: dir.at(source),
                options: BundleImportOptions(
                    force: true, flavorspec: flavored ? spec : nil, includeMasterArchive: random.next() % 2 == 0, statCacheFolder: nil))
            guard case .created(let version) = result else { Issue.record("step \(step): \(result)"); return }
            try expectDefinitionOrder(catalog, version: version, earlier: existing, storage: storage)
            existing.append(version)

            switch random.next() % 6 {
            case 0 where existing.count > 2:
                let victim = existing.remove(at: Int(random.next() % UInt64(existing.count - 1)))
                _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(victim))]).run()
            case 1:
                try storage.delete("lmfo/B-\(version).json")
            default:
                break
            }
            #expect(try CatalogVerification(catalog).run().problems.isEmpty, "step \(step)")
        }
    }

    /// A record is written straight to bytes, not through `JSONValue`: they must still be
    /// canonical JSON (compact, keys sorted as `JSONValue` sorts them), with several scopes
    /// and intros of one and two digits ("10" sorts before "9").
    @Test func aRecordIsCanonicalJSON() throws {
        let dir = try TemporaryDirectory()
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.lmfo", in: storage)
        let spec = try Flavorspec.parse(Array(#"{"small": ["+ *.txt", "- *"], "big": ["- *.txt", "+ *"]}"#.utf8), source: "spec")
        for version in 1...11 {
            try dir.write(
                "src/file\(version)" + (version % 2 == 0 ? ".txt" : ".bin"), SampleContent.text(60 + version, word: "v\(version)"))
            _ = try catalog.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec, statCacheFolder: nil))
        }
        let bytes = try #require(try storage.read("lmfo/B-11.json"))
        #expect(try JSONValue.parse(bytes).encoded() == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"earlier_versions":[1,2,3,4,5,6,7,8,9,10],"scopes":{"":{"1":["#))
        #expect(text.hasSuffix(#"]}},"version":11}"#))
        #expect(text.contains(#""big":{"#) && text.contains(#""small":{"#))
    }

    /// The order every archive of `version` must have by FORMAT.md's definition, from
    /// the manifests of the versions that existed before it.
    private func expectDefinitionOrder(_ catalog: Catalog, version: Int, earlier: [Int], storage: MemoryStorage) throws {
        let manifest = try catalog.manifest(bundle: "B", version: version)
        for scope in Catalog.archiveScopes(of: manifest, includeMasterArchive: true) {
            let path = Catalog.archivePath(bundle: "B", version: version, flavor: scope)
            guard let bytes = try storage.read(path) else { continue }
            let objects = manifest.objects(flavor: scope)
            let expected = try LMFOOrder.order(objects: Set(objects.keys), version: version, earlierVersions: earlier) { older in
                Set(try catalog.manifest(bundle: "B", version: older).objects(flavor: scope).keys)
            }
            let actual = try #require(TarListing.members(bytes)).map { member in
                objects.values.first { $0.fileName == member.name }!.sha
            }
            #expect(actual == expected, "\(path) after versions \(earlier)")
        }
    }

    /// An update reads the newest manifest (to tell whether anything changed) and the
    /// newest record, however many versions came before.
    @Test func anUpdateReadsAsMuchAtVersion40AsAtVersion3() throws {
        let dir = try TemporaryDirectory()
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.lmfo", in: storage)
        try dir.write("src/unchanged.bin", SampleContent.noise(5000, seed: 1))
        var readsPerUpdate = [Int: (manifests: Int, records: Int)]()
        for version in 1...40 {
            try dir.write("src/changing.txt", SampleContent.text(200 + version))
            let manifests = storage.reads(under: "manifests"), records = storage.reads(under: "lmfo")
            #expect(
                try catalog.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(statCacheFolder: nil))
                    == .created(version: version))
            readsPerUpdate[version] = (storage.reads(under: "manifests") - manifests, storage.reads(under: "lmfo") - records)
        }
        #expect(readsPerUpdate[3]! == (1, 1))
        #expect(readsPerUpdate[40]! == readsPerUpdate[3]!)
    }

    /// Verifying a whole catalog reads each manifest (plain and gzipped), record, archive
    /// and object once, also after versions were deleted from the middle of its history,
    /// and checking one version reads the same at version 30 as at version 3.
    @Test func verifyReadsEachFileOnce() throws {
        let dir = try TemporaryDirectory()
        let storage = MemoryStorage()
        let catalog = try Catalog.create(id: "com.example.lmfo", in: storage)
        try catalog.setArchivePolicy(.all)
        try dir.write("src/unchanged.bin", SampleContent.noise(5000, seed: 1))
        var readsOfOneVersion = [Int: [Int]]()
        let folders = ["manifests", "lmfo", "archives", "objects"]
        for version in 1...30 {
            try dir.write("src/changing.txt", SampleContent.text(200 + version))
            _ = try catalog.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(statCacheFolder: nil))
            let before = folders.map { storage.reads(under: $0) }
            #expect(try CatalogVerification(catalog, scope: .version(bundle: "B", .latest)).run().problems.isEmpty)
            readsOfOneVersion[version] = zip(folders, before).map { storage.reads(under: $0) - $1 }
        }
        #expect(readsOfOneVersion[3]! == [3, 2, 1, 2])  // its manifest twice (plain and .gz), the previous one once
        #expect(readsOfOneVersion[30]! == readsOfOneVersion[3]!)

        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(10)), .spec(.number(20))]).run()
        let before = folders.map { storage.reads(under: $0) }
        let report = try CatalogVerification(catalog).run()
        #expect(report.problems.isEmpty)
        // 28 versions, each with its own `changing.txt`, and one `unchanged.bin`.
        #expect(zip(folders, before).map { storage.reads(under: $0) - $1 } == [56, 28, 28, 29])
    }

    /// A record comes to clients from outside, as a hint: whatever the bytes, `parse`
    /// refuses them with an error naming the record, never a crash, and a valid one is read.
    @Test(arguments: [
        "", "null", "[]", "{", #"{"version": 3}"#,
        #"{"version": 2, "earlier_versions": [1], "scopes": {}}"#,
        #"{"version": 3, "earlier_versions": [2, 1], "scopes": {}}"#,
        #"{"version": 3, "earlier_versions": [1, 3], "scopes": {}}"#,
        #"{"version": 3, "earlier_versions": [0], "scopes": {}}"#,
        #"{"version": 3, "earlier_versions": [1.5], "scopes": {}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": []}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": []}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"4": []}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"0": []}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"-1": []}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"99999999999999999999": []}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"1": "abc"}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"1": ["abc"]}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"1": [7]}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"../x": {}}}"#,
        #"{"version": 3, "earlier_versions": [1], "scopes": {"": {"1": ["\#(String(repeating: "a", count: 40))"], "3": ["\#(String(repeating: "a", count: 40))"]}}}"#,
        String(repeating: "[", count: 100_000),
    ])
    func aHostileRecordIsRefused(_ text: String) {
        #expect(throws: ZincError.self) { try LMFORecord.parse(Array(text.utf8), path: "lmfo/B-3.json", version: 3) }
    }

    @Test func aValidRecordIsRead() throws {
        let sha = String(repeating: "ab", count: 20)
        let text = #"{"version": 3, "earlier_versions": [1, 2], "scopes": {"": {"1": ["\#(sha)"]}, "small": {}}}"#
        let record = try LMFORecord.parse(Array(text.utf8), path: "lmfo/B-3.json", version: 3)
        #expect(record.version == 3 && record.scopes[""] == [SHA1.Digest(hex: sha)!: 1] && record.scopes["small"] == [:])
    }
}
