import ArgumentParser

struct FlavorspecUpdateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flavorspec:update",
        abstract: "The Python tool's spelling of update_flavorspec.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("p"), .customLong("path")], help: "The flavorspec file.")
    var path: String

    @Option(name: [.customShort("n"), .customLong("name")], help: "The name to store it under (default: the file's name without .json).")
    var name: String?

    func run() throws {
        try UpdateFlavorspec.store(catalog: catalog.reference, path: path, name: name)
    }
}
