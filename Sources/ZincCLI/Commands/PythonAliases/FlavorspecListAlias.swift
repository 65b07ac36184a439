import ArgumentParser

struct FlavorspecListAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flavorspec:list",
        abstract: "The Python tool's spelling of list_flavorspecs.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    func run() throws {
        try ListFlavorspecs.show(catalog: catalog.reference)
    }
}
