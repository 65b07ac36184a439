import ArgumentParser
import Zinc

struct ListFlavorspecs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list_flavorspecs",
        abstract: "List the names of the flavorspecs stored in a catalog, one per line.",
        aliases: ["list-flavorspecs"]
    )

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        try Self.show(catalog: try catalog.reference)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:list`.
    static func show(catalog location: CatalogReference) throws {
        for name in try location.open().flavorspecs.names() {
            print(name)
        }
    }
}
