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

    @Flag(help: "Print one JSON document instead: {\"flavorspec\", \"deleted\": true}.")
    var json = false

    func run() throws {
        try Self.delete(catalog: try catalog.reference, name: name, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:delete`.
    static func delete(catalog location: CatalogReference, name: String, json: Bool = false) throws {
        try location.open().flavorspecs.delete(name)
        if json {
            try printJSON(Report(flavorspec: name))
        } else {
            print("Deleted flavorspec '\(name)'")
        }
    }
}

extension DeleteFlavorspec {
    /// `delete_flavorspec --json`: `{"flavorspec", "deleted": true}`.
    struct Report: Encodable {
        let flavorspec: String
        let deleted = true
    }
}
