import ArgumentParser
import Zinc

struct Promote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Point distribution TO of a bundle at the version distribution FROM points at.",
        discussion: """
            'zinc promote Game test master' ships what was tested: clients following \
            master get the version test points at. The version master pointed at is kept \
            under _master, so 'zinc promote Game _master master' undoes it. The same as \
            'update_distro --bundle BUNDLE --distro TO --version @FROM'.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Argument(help: "The bundle.")
    var bundle: String

    @Argument(help: ArgumentHelp("The distribution whose version is promoted (test, or _master to undo).", valueName: "FROM"))
    var from: String

    @Argument(help: ArgumentHelp("The distribution to move (master); created if missing (see --create).", valueName: "TO"))
    var to: String

    @OptionGroup var creation: CreateOption

    @Flag(help: "Do not keep the replaced version under _TO.")
    var noPrev = false

    @Flag(help: "Move the pointer even while a rollout of the distribution is live (which ends the rollout).")
    var force = false

    @Flag(help: "Print one JSON document instead: {\"bundle\", \"from\", \"distro\", \"version\", \"previous\" (or null), \"changed\"}.")
    var json = false

    func run() throws {
        let reference = try self.catalog.reference.signed(by: signing)
        let catalog = try reference.open()
        // `@test` works as well as `test`: it is how a version spec names it.
        let source = from.hasPrefix("@") ? String(from.dropFirst()) : from
        try creation.check(to, of: bundle, in: catalog)
        let update = try DistroUpdate(catalog, bundle: bundle, distro: to, to: .distro(source), savePrevious: !noPrev, force: force).run()
        if json { return try printJSON(DistroChangeReport(bundle: bundle, distro: to, change: update, from: source)) }
        switch update {
        case .created(let v):
            print("Created distribution '\(to)' at '\(bundle)-v\(v)', where '\(source)' points")
        case .updated(let v, let previous):
            let undo = noPrev ? "" : "; undo with \(reference.hint("promote", bundle, "_" + to, to))"
            print("Promoted '\(bundle)-v\(v)' from '\(source)' to '\(to)' (was v\(previous))\(undo)")
        case .unchanged(let v):
            print("Distribution '\(to)' already points at '\(bundle)-v\(v)', as '\(source)' does")
        }
    }
}
