import ArgumentParser
import Zinc

struct DumpIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump_index",
        abstract: "Print a catalog's index as indented JSON.",
        discussion: "The index as zinc reads it (validated, in the current layout), keys sorted.",
        aliases: ["dump-index"]
    )

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        try Self.dump(catalog: try catalog.reference)
    }

    /// The whole command, shared with its Python-tool spelling `dump:index`.
    static func dump(catalog location: CatalogReference) throws {
        try printJSON(location.open().index().json())
    }
}
