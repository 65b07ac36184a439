import ArgumentParser

struct FlavorspecDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flavorspec:delete",
        abstract: "The Python tool's spelling of delete_flavorspec.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("n"), .customLong("name")], help: "The flavorspec's name.")
    var name: String

    func run() throws {
        try DeleteFlavorspec.delete(catalog: catalog.reference, name: name)
    }
}
