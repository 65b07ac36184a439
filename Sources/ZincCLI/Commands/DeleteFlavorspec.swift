import ArgumentParser
import Zinc

struct DeleteFlavorspec: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete_flavorspec",
        abstract: "Remove a stored flavorspec from a catalog.",
        discussion: "Bundle versions imported with it keep their flavors: manifests do not refer to flavorspecs.",
        aliases: ["delete-flavorspec"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: "The flavorspec's name.")
    var name: String

    func run() throws {
        try Self.delete(catalog: try catalog.reference, name: name)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:delete`.
    static func delete(catalog location: CatalogReference, name: String) throws {
        try reportingErrors {
            try location.open().flavorspecs.delete(name)
            print("Deleted flavorspec '\(name)'")
        }
    }
}
