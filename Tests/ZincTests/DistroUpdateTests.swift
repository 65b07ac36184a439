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
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: .number(1)) == .created(version: 1))
        #expect(try distros() == ["master": 1])
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: .number(2)) == .updated(version: 2, previous: 1))
        #expect(try distros() == ["master": 2, "_master": 1])
    }

    @Test func promotesWithAtOtherAndRollsBackWithThePreviousPointer() throws {
        _ = try catalog.updateDistro(bundle: "B", distro: "master", to: .number(1))
        _ = try catalog.updateDistro(bundle: "B", distro: "test", to: .latest)
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: VersionSpec("@test")) == .updated(version: 3, previous: 1))
        #expect(try distros() == ["master": 3, "_master": 1, "test": 3])
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: VersionSpec("@_master")) == .updated(version: 1, previous: 3))
        #expect(try distros() == ["master": 1, "_master": 3, "test": 3])
    }

    @Test func noPrevLeavesThePreviousPointerAlone() throws {
        _ = try catalog.updateDistro(bundle: "B", distro: "master", to: .number(1))
        _ = try catalog.updateDistro(bundle: "B", distro: "master", to: .number(2), savePrevious: false)
        #expect(try distros() == ["master": 2])
    }

    @Test func pointingAtTheSameVersionChangesNothing() throws {
        _ = try catalog.updateDistro(bundle: "B", distro: "master", to: .number(1))
        _ = try catalog.updateDistro(bundle: "B", distro: "master", to: .number(2))
        #expect(try catalog.updateDistro(bundle: "B", distro: "master", to: .number(2)) == .unchanged(version: 2))
        #expect(try distros() == ["master": 2, "_master": 1])
    }

    @Test func refusesMissingVersionsBundlesDistrosAndBadNames() throws {
        let before = try dir.read("cat/catalog.json")
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "9")) {
            try catalog.updateDistro(bundle: "B", distro: "master", to: .number(9))
        }
        #expect(throws: ZincError.bundleNotFound("Nope")) { try catalog.updateDistro(bundle: "Nope", distro: "master", to: .latest) }
        #expect(throws: ZincError.distroNotFound(bundle: "B", distro: "qa")) {
            try catalog.updateDistro(bundle: "B", distro: "master", to: VersionSpec("@qa"))
        }
        #expect(
            throws: ZincError.invalidName(
                kind: "distribution name", value: "_master",
                reason: "names starting with '_' are reserved for previous-distro pointers")
        ) {
            try catalog.updateDistro(bundle: "B", distro: "_master", to: .latest)
        }
        #expect(throws: ZincError.invalidVersionSpec("two")) { try VersionSpec("two") }
        #expect(throws: ZincError.invalidVersionSpec("0")) { try VersionSpec("0") }
        #expect(try dir.read("cat/catalog.json") == before)
    }
}
