import ArgumentParser
import Zinc

struct ListFlavorspecs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list_flavorspecs",
        abstract: "List the names of the flavorspecs stored in a catalog, one per line."
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    func run() throws {
        try Self.show(catalog: catalog)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:list`.
    static func show(catalog location: String) throws {
        try reportingErrors {
            for name in try Catalog.open(at: CatalogLocation.resolve(location)).flavorspecs.names() {
                print(name)
            }
        }
    }
}
