import ArgumentParser
import Zinc

struct CreateCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create_catalog",
        abstract: "Create an empty catalog.",
        discussion: "Without --dest the catalog goes to catalogs/<ID>, the embedded default folder."
    )

    @Option(help: "The catalog id, reverse-DNS style (letters, digits, '.', '_', '-').")
    var id: String

    @Option(help: "Where to create it: a path, file:///abs/path or file://relative/path.")
    var dest: String?

    func run() throws {
        try reportingErrors {
            let location = try dest.map(CatalogLocation.destination) ?? CatalogLocation.embedded(id: id)
            _ = try Catalog.create(id: id, in: FileStorage(root: location.rootPath))
            print("Created catalog '\(id)' at \(location.rootPath)")
        }
    }
}
