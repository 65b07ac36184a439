import Testing
import Zinc
import ZincTestSupport

@Suite struct DistroUpdateTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// A catalog with versions 1, 2 and 3 of bundle B.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "c", in: FileStorage(root: dir.at("cat")))
        for v in 1...3 {
            try dir.write("src/a.txt", "version \(v)")
            _ = try catalog.updateBundle("B", from: dir.at("src"))
        }
    }

    func distros() throws -> [String: Int] { try catalog.index().bundles["B"]!.distributions }

    @Test func createsThenUpdatesKeepingThePreviousVersion() throws {
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run() == .created(version: 1))
        #expect(try distros() == ["master": 1])
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run() == .updated(version: 2, previous: 1))
        #expect(try distros() == ["master": 2, "_master": 1])
    }

    @Test func promotesWithAtOtherAndRollsBackWithThePreviousPointer() throws {
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        try DistroUpdate(catalog, bundle: "B", distro: "test", to: .latest).run()
        #expect(
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: VersionSpec("@test")).run() == .updated(version: 3, previous: 1))
        #expect(try distros() == ["master": 3, "_master": 1, "test": 3])
        #expect(
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: VersionSpec("@_master")).run() == .updated(version: 1, previous: 3)
        )
        #expect(try distros() == ["master": 1, "_master": 3, "test": 3])
    }

    @Test func planChangesNothingAndIsWhatTheRunDoes() throws {
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        let before = try dir.read("cat/catalog.json")
        for spec in [VersionSpec.number(1), .latest] {
            let update = DistroUpdate(catalog, bundle: "B", distro: "master", to: spec)
            let plan = try update.plan()
            #expect(try dir.read("cat/catalog.json") == before)
            #expect(try update.run() == plan)
        }
        #expect(try distros() == ["master": 3, "_master": 1])
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "9")) {
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(9)).plan()
        }
    }

    @Test func noPrevLeavesThePreviousPointerAlone() throws {
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2), savePrevious: false).run()
        #expect(try distros() == ["master": 2])
    }

    @Test func pointingAtTheSameVersionChangesNothing() throws {
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
        #expect(try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run() == .unchanged(version: 2))
        #expect(try distros() == ["master": 2, "_master": 1])
    }

    @Test func refusesMissingVersionsBundlesDistrosAndBadNames() throws {
        let before = try dir.read("cat/catalog.json")
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "9")) {
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(9)).run()
        }
        #expect(throws: ZincError.bundleNotFound("Nope")) { try DistroUpdate(catalog, bundle: "Nope", distro: "master", to: .latest).run() }
        #expect(throws: ZincError.distroNotFound(bundle: "B", distro: "qa")) {
            try DistroUpdate(catalog, bundle: "B", distro: "master", to: VersionSpec("@qa")).run()
        }
        #expect(
            throws: ZincError.invalidName(
                kind: "distribution name", value: "_master",
                reason: "names starting with '_' are reserved for previous-distro pointers")
        ) {
            try DistroUpdate(catalog, bundle: "B", distro: "_master", to: .latest).run()
        }
        #expect(throws: ZincError.invalidVersionSpec("two")) { try VersionSpec("two") }
        #expect(throws: ZincError.invalidVersionSpec("0")) { try VersionSpec("0") }
        #expect(try dir.read("cat/catalog.json") == before)
    }
}
