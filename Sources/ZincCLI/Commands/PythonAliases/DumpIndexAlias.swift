import ArgumentParser

struct DumpIndexAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump:index",
        abstract: "The Python tool's spelling of dump_index.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    func run() throws {
        try DumpIndex.dump(catalog: CatalogReference(text: catalog))
    }
}
