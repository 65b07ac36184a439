import ArgumentParser
import Zinc

struct UpdateBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update_bundle",
        abstract: "Import a folder as a new version of a bundle.",
        discussion: """
            Every file under --source becomes part of the version. Nothing is created when \
            the files equal the newest version's, unless --force.
            """
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    @Option(name: [.customLong("name"), .customLong("id")], help: "The bundle name (--id is a synonym).")
    var name: String

    @Option(help: "The folder to import.")
    var source: String

    @Flag(help: "Create a new version even when nothing changed.")
    var force = false

    func run() throws {
        try reportingErrors {
            let catalog = try Catalog.open(at: CatalogLocation.resolve(self.catalog))
            switch try catalog.updateBundle(name, from: source, options: BundleUpdateOptions(force: force)) {
            case .created(let version):
                print("Created bundle '\(name)' version \(version)")
            case .unchanged(let version):
                print("Bundle '\(name)' unchanged at version \(version)")
            }
        }
    }
}
