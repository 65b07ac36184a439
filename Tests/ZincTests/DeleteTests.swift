import Foundation
import Testing
import Zinc
import ZincTestSupport

/// `delete_bundle` and `delete_distro`.
@Suite struct DeleteTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Bundle B with versions 1, 2 and 3, each adding a file.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        try SampleContent.basicAdjectives(in: dir)
        for version in 1...3 {
            try dir.write("src/v\(version).txt", SampleContent.text(3000 + version, word: "v\(version)"))
            _ = try catalog.updateBundle("B", from: dir.at("src"))
        }
    }

    /// In removal order: the manifests, then the archives.
    func files(of versions: Int...) -> [String] {
        versions.flatMap { ["manifests/B-\($0).json", "manifests/B-\($0).json.gz", "lmfo/B-\($0).json"] }
            + versions.map { "archives/B-\($0).tar" }
    }

    func point(_ distro: String, at version: Int) throws {
        _ = try catalog.updateDistro(bundle: "B", distro: distro, to: .number(version))
    }

    @Test func deletesFromTheIndexThenRemovesManifestsAndArchives() throws {
        let objects = dir.files(under: "cat/objects")
        let deletion = try catalog.deleteVersions(of: "B", [.spec(.number(2))])
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([2], false, files(of: 2)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [1, 3], distributions: [:], nextVersion: 3))
        // Clients may hold the old index for its cache lifetime: the files stay for clean.
        #expect(files(of: 2).allSatisfy { dir.exists("cat/" + $0) })
        #expect(try catalog.clean(force: true).files.isEmpty)
        #expect(Set(try catalog.clean(force: true, grace: .zero).files.map(\.path).prefix(4)) == Set(files(of: 2)))
        #expect(files(of: 2).allSatisfy { !dir.exists("cat/" + $0) })
        #expect(files(of: 1).allSatisfy { dir.exists("cat/" + $0) })
        #expect(dir.files(under: "cat/objects") == objects, "objects are clean's to remove")
        #expect(try catalog.verify().isOK)
        // Numbers are never reused.
        try dir.write("src/v4.txt", "4")
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 4))
    }

    @Test func refusesAVersionADistributionNamesAndDeletesNothing() throws {
        try point("master", at: 1)
        try point("master", at: 2)
        try point("test", at: 2)
        let before = dir.files(under: "cat")
        let index = try dir.read("cat/catalog.json")
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [1: ["_master"], 2: ["master", "test"]])) {
            try catalog.deleteVersions(of: "B", [.spec(.number(3)), .spec(.number(1)), .spec(.number(2))])
        }
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [2: ["master", "test"]])) {
            try catalog.deleteVersions(of: "B", [.spec(.distro("test"))])
        }
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [1: ["_master"], 2: ["master", "test"]])) {
            try catalog.deleteVersions(of: "B", [.all])
        }
        #expect(dir.files(under: "cat") == before)
        #expect(try dir.read("cat/catalog.json") == index)
    }

    @Test func unreferencedDeletesEveryVersionNoDistributionNames() throws {
        try point("master", at: 2)
        let deletion = try catalog.deleteVersions(of: "B", [.unreferenced])
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 3], false, files(of: 1, 3)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [2], distributions: ["master": 2], nextVersion: 3))
        #expect(try catalog.verify().isOK)
        #expect(try catalog.deleteVersions(of: "B", [.unreferenced]).versions.isEmpty)
    }

    /// The bundle keeps its entry and `next_version`: a CDN has cached `B-1.json` as
    /// immutable, so the next import must not be version 1 again.
    @Test func allKeepsTheBundlesNumbersUsed() throws {
        _ = try catalog.updateBundle("Other", from: dir.at("src"))
        let deletion = try catalog.deleteVersions(of: "B", [try VersionSelection(":all")])
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 2, 3], true, files(of: 1, 2, 3)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [], distributions: [:], nextVersion: 3))
        _ = try catalog.clean(force: true, grace: .zero)
        #expect(dir.files(under: "cat/manifests") == ["Other-1.json", "Other-1.json.gz"])
        #expect(dir.files(under: "cat/archives") == ["Other-1.tar"])
        #expect(try catalog.deleteVersions(of: "B", [.all]).versions.isEmpty)
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "latest (it has no versions)")) {
            try catalog.deleteVersions(of: "B", [.spec(.latest)])
        }
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 4))
        #expect(try catalog.verify().isOK)
    }

    @Test func aDryRunChangesNothing() throws {
        let before = dir.files(under: "cat")
        let deletion = try catalog.deleteVersions(of: "B", [.spec(.latest), .spec(.number(1))], dryRun: true)
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 3], false, files(of: 1, 3)))
        #expect(dir.files(under: "cat") == before)
        #expect(try catalog.index().bundles["B"]?.versions == [1, 2, 3])
    }

    @Test func removesEveryFlavorArchiveAndOnlyThisBundles() throws {
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- *.jpg", "+ *"], "tablet": ["+ *"]}"#.utf8), source: "spec")
        _ = try catalog.updateBundle("F", from: dir.at("src"), options: BundleUpdateOptions(flavorspec: spec))
        // A bundle whose name extends F's with a version-like suffix keeps its files.
        _ = try catalog.updateBundle("F-1", from: dir.at("src"), options: BundleUpdateOptions(flavorspec: spec))
        let deletion = try catalog.deleteVersions(of: "F", [.spec(.number(1))])
        #expect(
            deletion.files == [
                "manifests/F-1.json", "manifests/F-1.json.gz", "lmfo/F-1.json", "archives/F-1~phone.tar", "archives/F-1~tablet.tar",
            ])
        _ = try catalog.clean(force: true, grace: .zero)
        #expect(dir.files(under: "cat/archives").filter { $0.hasPrefix("F") } == ["F-1-1~phone.tar", "F-1-1~tablet.tar"])
    }

    @Test func refusesUnknownVersionsAndSpellings() throws {
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "7")) {
            try catalog.deleteVersions(of: "B", [.spec(.number(7))])
        }
        #expect(throws: ZincError.invalidVersionSpec("everything")) { try VersionSelection("everything") }
        #expect(try VersionSelection("unreferenced") == .unreferenced)
        #expect(try VersionSelection(":unreferenced") == .unreferenced)
        #expect(try VersionSelection("all") == .all)
        #expect(try VersionSelection(":latest") == .spec(.latest))
        #expect(try VersionSelection("@master") == .spec(.distro("master")))
        #expect(try catalog.index().bundles["B"]?.versions == [1, 2, 3])
    }

    @Test func deleteDistroRemovesItAndItsPreviousPointer() throws {
        try point("master", at: 1)
        try point("master", at: 2)
        try point("test", at: 3)
        #expect(try catalog.deleteDistro(bundle: "B", distro: "master") == 2)
        #expect(try catalog.index().bundles["B"]?.distributions == ["test": 3])
        #expect(throws: ZincError.distroNotFound(bundle: "B", distro: "master")) {
            try catalog.deleteDistro(bundle: "B", distro: "master")
        }
        #expect(
            throws: ZincError.invalidName(
                kind: "distribution name", value: "_test",
                reason: "names starting with '_' are reserved for previous-distro pointers")
        ) {
            try catalog.deleteDistro(bundle: "B", distro: "_test")
        }
        #expect(throws: ZincError.bundleNotFound("X")) { try catalog.deleteDistro(bundle: "X", distro: "test") }
        // With the pointers gone, the versions they held can go.
        #expect(try catalog.deleteVersions(of: "B", [.unreferenced]).versions == [1, 2])
    }
}
