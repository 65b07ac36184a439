import ArgumentParser

struct FlavorspecDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flavorspec:delete",
        abstract: "The Python tool's spelling of delete_flavorspec.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("n"), .customLong("name")], help: "The flavorspec's name.")
    var name: String

    func run() throws {
        try DeleteFlavorspec.delete(catalog: CatalogReference(text: catalog), name: name)
    }
}
