import ArgumentParser

struct DumpIndexAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump:index",
        abstract: "The Python tool's spelling of dump_index.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    func run() throws {
        try DumpIndex.dump(catalog: catalog.reference)
    }
}
