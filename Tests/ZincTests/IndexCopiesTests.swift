import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The index's commit point (`catalog.json`) and the three copies that follow it: what
/// an interrupted writer can leave, and how the next writer repairs it.
@Suite struct IndexCopiesTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Bundle B: version 1 is the talk's three files, version 2 replaces the photo.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogWithThePhotoReplaced(in: dir, archives: .all)
    }

    /// The copies as they were before the last change, put back as a writer killed
    /// after committing `catalog.json` would have left them.
    func leaveCopiesLagging(_ copies: [String: [UInt8]]) throws {
        for (name, bytes) in copies { try dir.write("cat/" + name, bytes) }
    }

    func copies(_ names: [String] = ["catalog.json.gz", "index.json", "index.json.gz"]) throws -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: try names.map { ($0, try dir.read("cat/" + $0)) })
    }

    func expectCopiesEqual() throws {
        let canonical = try dir.read("cat/catalog.json")
        #expect(try dir.read("cat/index.json") == canonical)
        for name in ["catalog.json.gz", "index.json.gz"] {
            #expect(try GzipDecompressor.decompress(dir.read("cat/" + name)) == canonical, "\(name)")
        }
    }

    @Test func aWriteThatChangesNothingStillRepairsLaggingCopies() throws {
        let before = try copies()
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run() == .created(version: 2))
        try leaveCopiesLagging(before)
        // The re-run of the same command: nothing to change, and it says so, but the copies agree again.
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run() == .unchanged(version: 2))
        try expectCopiesEqual()
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func anUnchangedImportRepairsLaggingCopies() throws {
        let before = try copies(["catalog.json.gz"])
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()
        try leaveCopiesLagging(before)
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .unchanged(version: 2))
        try expectCopiesEqual()
    }

    @Test func cleanKeepsWhatALaggingCopyListsUntilTheCopiesAgree() throws {
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest, savePrevious: false).run()
        let before = try copies(["catalog.json.gz"])
        // Version 1 leaves catalog.json, while the copy clients read still lists it.
        try catalog.updateIndex { $0.bundles["B"]!.versions = [2] }
        try leaveCopiesLagging(before)
        let first = try CatalogClean(catalog, grace: .zero).run()
        #expect(first.files.isEmpty, "a client reading catalog.json.gz may still fetch version 1: \(first.files)")
        #expect(dir.exists("cat/manifests/B-1.json.gz") && dir.exists("cat/archives/B-1.tar"))
        try expectCopiesEqual()  // clean --force repaired them
        let second = try CatalogClean(catalog, grace: .zero).run()
        #expect(second.files.map(\.path).filter { $0.hasPrefix("manifests/") } == ["manifests/B-1.json", "manifests/B-1.json.gz"])
        #expect(second.files.map(\.path).contains("archives/B-1.tar"))
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func aCatalogWithOnlyTheLegacyCopiesGetsItsCommitPoint() throws {
        for name in ["catalog.json", "catalog.json.gz"] { try FileManager.default.removeItem(atPath: dir.at("cat/" + name)) }
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "test", to: .number(1)).run() == .created(version: 1))
        try expectCopiesEqual()
        #expect(try catalog.index().bundles["B"]?.distributions == ["test": 1])
    }

    /// Every name read from an index is checked before any path is built from it.
    @Test func hostileNamesInTheIndexAreRefusedBeforeAnyPathIsBuilt() throws {
        try dir.write("victim-1.json", "keep me")
        let cases: [(json: String, reason: String)] = [
            (
                #"{"id":"x","format":"1","bundles":{"../../victim":{"versions":[1],"next_version":1}}}"#,
                "invalid bundle name '../../victim': it contains '/' (a name may hold any character but slashes, '~' and control characters)"
            ),
            (
                "{\"id\":\"x\",\"format\":\"1\",\"bundles\":{\"B\\u0000x\":{\"versions\":[1]}}}",
                "invalid bundle name 'B\\u{0}x': it contains a control character (a name may hold any character but slashes, '~' and control characters)"
            ),
            (
                #"{"id":"../x","format":"1","bundles":{}}"#,
                "invalid catalog id '../x': only letters, digits, '.', '_' and '-' are allowed"
            ),
            (
                #"{"id":"x","format":"1","bundles":{"B":{"versions":[1],"distributions":{"a/b":1}}}}"#,
                "invalid distribution name 'a/b': it contains '/' (a name may hold any character but slashes, '~' and control characters)"
            ),
        ]
        for (json, reason) in cases {
            for name in CatalogIndex.fileNames {
                try dir.write("cat/" + name, name.hasSuffix(".gz") ? GzipCompressor.compress(Array(json.utf8)) : Array(json.utf8))
            }
            #expect(throws: ZincError.corruptFile(path: dir.at("cat/catalog.json"), reason: reason)) {
                try VersionDeletion(catalog, bundle: "../../victim", versions: [.all]).run()
            }
        }
        #expect(try dir.read("victim-1.json") == Array("keep me".utf8))
    }

    /// Numbers past what clients hold in 32 bits are damage, reported, never a trap.
    @Test func outOfRangeVersionNumbersAreRefused() throws {
        let huge = "9223372036854775807"
        for (json, reason) in [
            (
                #"{"id":"x","format":"1","bundles":{"B":{"versions":[1],"next_version":\#(huge)}}}"#,
                "bundle 'B': 'next_version' is not a number from 0 to 2147483647"
            ),
            (
                #"{"id":"x","format":"1","bundles":{"B":{"versions":[\#(huge)]}}}"#,
                "bundle 'B': version \(huge) is not a number from 1 to 2147483647"
            ),
        ] {
            #expect(throws: ZincError.corruptFile(path: "catalog.json", reason: reason)) {
                try CatalogIndex.parse(Array(json.utf8), path: "catalog.json")
            }
        }
        // The last number there is: an import says so instead of overflowing.
        try catalog.updateIndex { $0.bundles["B"]!.nextVersion = CatalogIndex.maximumVersion }
        try dir.write("src/new.json", SampleContent.text(100))
        #expect(throws: ZincError.versionNumbersExhausted(bundle: "B")) {
            try catalog.updateBundle("B", from: dir.at("src"))
        }
        #expect(try catalog.index().bundles["B"]?.versions == [1, 2])
    }
}
