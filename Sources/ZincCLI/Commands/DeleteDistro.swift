import ArgumentParser
import Zinc

struct DeleteDistro: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete_distro",
        abstract: "Delete a distribution of a bundle.",
        discussion: "Also removes _NAME, the pointer that kept the version NAME had before its last change."
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    @Option(name: [.customLong("id"), .customLong("bundle")], help: "The bundle name.")
    var id: String

    @Option(help: "The distribution name.")
    var name: String

    func run() throws {
        try Self.delete(catalog: catalog, bundle: id, distro: name)
    }

    /// The whole command, shared with its Python-tool spelling `distro:delete`.
    static func delete(catalog location: String, bundle: String, distro: String) throws {
        try reportingErrors {
            let catalog = try Catalog.open(at: CatalogLocation.resolve(location))
            let version = try catalog.deleteDistro(bundle: bundle, distro: distro)
            print("Deleted distribution '\(distro)' of '\(bundle)' (it pointed at version \(version))")
        }
    }
}
