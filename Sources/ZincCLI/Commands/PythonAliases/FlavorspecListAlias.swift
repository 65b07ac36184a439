import ArgumentParser

struct FlavorspecListAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flavorspec:list",
        abstract: "The Python tool's spelling of list_flavorspecs.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    func run() throws {
        try ListFlavorspecs.show(catalog: CatalogReference(text: catalog))
    }
}
