import ArgumentParser
import Zinc

struct DumpIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump_index",
        abstract: "Print a catalog's index as indented JSON.",
        discussion: "The index as zinc reads it (validated, in the current layout), keys sorted."
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    func run() throws {
        try Self.dump(catalog: catalog)
    }

    /// The whole command, shared with its Python-tool spelling `dump:index`.
    static func dump(catalog location: String) throws {
        try reportingErrors {
            printJSON(try Catalog.open(at: CatalogLocation.resolve(location)).index().json())
        }
    }
}
