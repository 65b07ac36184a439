import Testing
import Zinc
import ZincTestSupport

/// What `list` and `list_bundle` read: bundles with their distros, versions by spec.
@Suite struct ListingTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// BasicAdjectives 1 and 2 (master and test at 2, _master at 1), Zebra 1 without distros.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.mindsnacks.french", in: FileStorage(root: dir.at("cat")))
        try SampleContent.basicAdjectives(in: dir)
        _ = try catalog.updateBundle("BasicAdjectives", from: dir.at("src"))
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        _ = try catalog.updateBundle("BasicAdjectives", from: dir.at("src"))
        _ = try catalog.updateBundle("Zebra", from: dir.at("src/audio"))
        try DistroUpdate(catalog, bundle: "BasicAdjectives", distro: "master", to: .number(1)).run()
        try DistroUpdate(catalog, bundle: "BasicAdjectives", distro: "master", to: .number(2)).run()
        try DistroUpdate(catalog, bundle: "BasicAdjectives", distro: "test", to: .latest).run()
    }

    @Test func listsBundlesSortedWithTheDistrosOfEachVersion() throws {
        #expect(
            try catalog.listBundles() == [
                BundleListing(
                    name: "BasicAdjectives",
                    versions: [
                        .init(number: 1, distributions: ["_master"]),
                        .init(number: 2, distributions: ["master", "test"]),
                    ]),
                BundleListing(name: "Zebra", versions: [.init(number: 1, distributions: [])]),
            ])
    }

    @Test func aDistroFilterKeepsOnlyItsBundlesAtTheVersionItPointsAt() throws {
        #expect(
            try catalog.listBundles(distro: "test") == [
                BundleListing(name: "BasicAdjectives", versions: [.init(number: 2, distributions: ["master", "test"])])
            ])
        #expect(try catalog.listBundles(distro: "_master").map(\.versions) == [[.init(number: 1, distributions: ["_master"])]])
        #expect(try catalog.listBundles(distro: "nobody").isEmpty)
    }

    @Test func resolvesEveryVersionSpelling() throws {
        for (text, version) in [("1", 1), ("latest", 2), (":latest", 2), ("@master", 2), ("@_master", 1)] {
            #expect(try catalog.manifest(bundle: "BasicAdjectives", resolving: VersionSpec(text)).version == version)
        }
        #expect(throws: ZincError.versionNotFound(bundle: "BasicAdjectives", version: "7")) {
            try catalog.manifest(bundle: "BasicAdjectives", resolving: .number(7))
        }
        #expect(throws: ZincError.distroNotFound(bundle: "Zebra", distro: "master")) {
            try catalog.manifest(bundle: "Zebra", resolving: .distro("master"))
        }
        #expect(throws: ZincError.bundleNotFound("Nope")) { try catalog.manifest(bundle: "Nope", resolving: .latest) }
    }

    @Test func listsPathsSortedAndRefusesAnUnknownFlavor() throws {
        let manifest = try catalog.manifest(bundle: "BasicAdjectives", resolving: .latest)
        #expect(
            try manifest.paths(ofExistingFlavor: nil)
                == ["Basic Adjectives.js", "audio/basic-adj-11.caf", "audio/basic-adj-12.caf", "photos/85x85/kind.jpg"])
        #expect(throws: ZincError.flavorNotFound(bundle: "BasicAdjectives", version: 2, flavor: "phone", flavors: [])) {
            try manifest.paths(ofExistingFlavor: "phone")
        }
    }
}
