import ArgumentParser
import Zinc

struct UpdateDistro: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update_distro",
        abstract: "Point a distribution of a bundle at a version.",
        discussion: """
            VERSION is a number, 'latest', or @OTHER for the version distro OTHER points at \
            (or 'zinc promote BUNDLE test master'). The replaced version is kept under _NAME, \
            so '--version @_master' rolls a bad promotion back. A new distribution a typo away \
            from one the bundle has (mastr, with master) is refused unless --create is given.
            """,
        aliases: ["update-distro"]
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Option(name: [.customLong("bundle"), .customLong("id")], help: "The bundle name (--id is a synonym).")
    var id: String

    @Option(
        name: [.customLong("distro"), .customLong("name")],
        help: "The distribution name (master, test, ...); --name is a synonym.")
    var name: String

    @Option(help: "A version number, 'latest' or @DISTRO.")
    var version: String

    @OptionGroup var creation: CreateOption

    @Flag(help: "Do not keep the replaced version under _NAME.")
    var noPrev = false

    @Flag(help: "Move the pointer even while a rollout of the distribution is live (which ends the rollout).")
    var force = false

    @Flag(help: "Print one JSON document instead: {\"bundle\", \"distro\", \"version\", \"previous\" (or null), \"changed\"}.")
    var json = false

    func run() throws {
        let catalog = try self.catalog.reference.signed(by: signing).open()
        let spec = try VersionSpec(version, of: id, in: catalog)
        try creation.check(name, of: id, in: catalog)
        let update = try DistroUpdate(catalog, bundle: id, distro: name, to: spec, savePrevious: !noPrev, force: force).run()
        if json { return try printJSON(DistroChangeReport(bundle: id, distro: name, change: update)) }
        switch update {
        case .created(let v):
            print("Created distribution '\(name)' for '\(id)-v\(v)'")
        case .updated(let v, let previous):
            print("Updated distribution '\(name)' for '\(id)-v\(v)' (was v\(previous))")
        case .unchanged(let v):
            print("Distribution '\(name)' already points at '\(id)-v\(v)'")
        }
    }
}
