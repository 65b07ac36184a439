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
        catalog = try SampleContent.catalogGrowingByAFile(in: dir, versions: 3, archives: .all)
    }

    /// In removal order: the manifests, then the archives.
    func files(of versions: Int...) -> [String] {
        versions.flatMap {
            [
                "manifests/B-\($0).json", "manifests/B-\($0).json.gz", "sizes/B-\($0).json.gz", "lmfo/B-\($0).json",
                "manifest-chunks/B-\($0).json.gz",
            ]
        }
            + versions.map { "archives/B-\($0).tar" }
    }

    func point(_ distro: String, at version: Int) throws {
        try DistroUpdate(catalog, bundle: "B", distro: distro, to: .number(version)).run()
    }

    @Test func deletesFromTheIndexThenRemovesManifestsAndArchives() throws {
        let objects = dir.files(under: "cat/objects")
        let deletion = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(2))]).run()
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([2], false, files(of: 2)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [1, 3], distributions: [:], nextVersion: 3))
        // Clients may hold the old index for its cache lifetime: the files stay for clean.
        #expect(files(of: 2).allSatisfy { dir.exists("cat/" + $0) })
        #expect(try CatalogClean(catalog).run().files.isEmpty)
        #expect(Set(try CatalogClean(catalog, grace: .zero).run().files.map(\.path).prefix(files(of: 2).count)) == Set(files(of: 2)))
        #expect(files(of: 2).allSatisfy { !dir.exists("cat/" + $0) })
        #expect(files(of: 1).allSatisfy { dir.exists("cat/" + $0) })
        #expect(dir.files(under: "cat/objects") == objects, "objects are clean's to remove")
        #expect(try CatalogVerification(catalog).run().isOK)
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
            try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(3)), .spec(.number(1)), .spec(.number(2))]).run()
        }
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [2: ["master", "test"]])) {
            try VersionDeletion(catalog, bundle: "B", versions: [.spec(.distro("test"))]).run()
        }
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [1: ["_master"], 2: ["master", "test"]])) {
            try VersionDeletion(catalog, bundle: "B", versions: [.all]).run()
        }
        #expect(dir.files(under: "cat") == before)
        #expect(try dir.read("cat/catalog.json") == index)
    }

    @Test func unreferencedDeletesEveryVersionNoDistributionNames() throws {
        try point("master", at: 2)
        let deletion = try VersionDeletion(catalog, bundle: "B", versions: [.unreferenced]).run()
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 3], false, files(of: 1, 3)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [2], distributions: ["master": 2], nextVersion: 3))
        #expect(try CatalogVerification(catalog).run().isOK)
        #expect(try VersionDeletion(catalog, bundle: "B", versions: [.unreferenced]).run().versions.isEmpty)
    }

    /// The bundle keeps its entry and `next_version`: a CDN has cached `B-1.json` as
    /// immutable, so the next import must not be version 1 again.
    @Test func allKeepsTheBundlesNumbersUsed() throws {
        _ = try catalog.updateBundle("Other", from: dir.at("src"))
        let deletion = try VersionDeletion(catalog, bundle: "B", versions: [try VersionSelection(":all")]).run()
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 2, 3], true, files(of: 1, 2, 3)))
        #expect(try catalog.index().bundles["B"] == .init(versions: [], distributions: [:], nextVersion: 3))
        _ = try CatalogClean(catalog, grace: .zero).run()
        #expect(dir.files(under: "cat/manifests") == ["Other-1.json", "Other-1.json.gz"])
        #expect(dir.files(under: "cat/archives") == ["Other-1.tar"])
        #expect(try VersionDeletion(catalog, bundle: "B", versions: [.all]).run().versions.isEmpty)
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "latest (it has no versions)")) {
            try VersionDeletion(catalog, bundle: "B", versions: [.spec(.latest)]).run()
        }
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 4))
        #expect(try CatalogVerification(catalog).run().isOK)
    }

    @Test func aDryRunChangesNothing() throws {
        let before = dir.files(under: "cat")
        let deletion = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.latest), .spec(.number(1))]).plan()
        #expect((deletion.versions, deletion.removesLastVersion, deletion.files) == ([1, 3], false, files(of: 1, 3)))
        #expect(dir.files(under: "cat") == before)
        #expect(try catalog.index().bundles["B"]?.versions == [1, 2, 3])
    }

    /// The dry run is the plan the run then carries out.
    @Test func aPlanIsWhatTheRunDeletes() throws {
        try point("master", at: 2)
        try point("test", at: 3)
        let operation = VersionDeletion(catalog, bundle: "B", versions: [.unreferenced])
        let plan = try operation.plan()
        #expect(plan.versions == [1])
        #expect(try operation.run() == plan)
        #expect(try catalog.index().bundles["B"]?.versions == [2, 3])

        try point("master", at: 3)
        let distroDeletion = DistroDeletion(catalog, bundle: "B", distro: "master")
        let before = try catalog.index()
        let distroPlan = try distroDeletion.plan()
        #expect((distroPlan.bundle, distroPlan.distro, distroPlan.version, distroPlan.previousVersion) == ("B", "master", 3, 2))
        #expect(try catalog.index() == before)
        #expect(try distroDeletion.run() == distroPlan)
        #expect(try catalog.index().bundles["B"]?.distributions == ["test": 3])
    }

    @Test func removesEveryFlavorArchiveAndOnlyThisBundles() throws {
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- *.jpg", "+ *"], "tablet": ["+ *"]}"#.utf8), source: "spec")
        _ = try catalog.updateBundle("F", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec))
        // A bundle whose name extends F's with a version-like suffix keeps its files.
        _ = try catalog.updateBundle("F-1", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec))
        let deletion = try VersionDeletion(catalog, bundle: "F", versions: [.spec(.number(1))]).run()
        #expect(
            deletion.files == [
                "manifests/F-1.json", "manifests/F-1.json.gz", "sizes/F-1.json.gz", "lmfo/F-1.json", "manifest-chunks/F-1.json.gz",
                "archives/F-1~phone.tar",
                "archives/F-1~tablet.tar",
            ])
        _ = try CatalogClean(catalog, grace: .zero).run()
        #expect(dir.files(under: "cat/archives").filter { $0.hasPrefix("F") } == ["F-1-1~phone.tar", "F-1-1~tablet.tar"])
    }

    @Test func refusesUnknownVersionsAndSpellings() throws {
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "7")) {
            try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(7))]).run()
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
        #expect(try DistroDeletion(catalog, bundle: "B", distro: "master").run().version == 2)
        #expect(try catalog.index().bundles["B"]?.distributions == ["test": 3])
        #expect(throws: ZincError.distroNotFound(bundle: "B", distro: "master")) {
            try DistroDeletion(catalog, bundle: "B", distro: "master").run()
        }
        #expect(
            throws: ZincError.invalidName(
                kind: "distribution name", value: "_test",
                reason: "names starting with '_' are reserved for previous-distro pointers")
        ) {
            try DistroDeletion(catalog, bundle: "B", distro: "_test").run()
        }
        #expect(throws: ZincError.bundleNotFound("X")) { try DistroDeletion(catalog, bundle: "X", distro: "test").run() }
        // With the pointers gone, the versions they held can go.
        #expect(try VersionDeletion(catalog, bundle: "B", versions: [.unreferenced]).run().versions == [1, 2])
    }
}
