import ArgumentParser
import Zinc

struct DeleteFlavorspec: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete_flavorspec",
        abstract: "Remove a stored flavorspec from a catalog.",
        discussion: "Bundle versions imported with it keep their flavors: manifests do not refer to flavorspecs."
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    @Option(help: "The flavorspec's name.")
    var name: String

    func run() throws {
        try Self.delete(catalog: catalog, name: name)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:delete`.
    static func delete(catalog location: String, name: String) throws {
        try reportingErrors {
            try Catalog.open(at: CatalogLocation.resolve(location)).flavorspecs.delete(name)
            print("Deleted flavorspec '\(name)'")
        }
    }
}
