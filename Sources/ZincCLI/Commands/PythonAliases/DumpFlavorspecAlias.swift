import ArgumentParser
import Zinc

struct DumpFlavorspecAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump:flavorspec",
        abstract: "The Python tool's dump:flavorspec: print a flavorspec stored in the catalog.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("n"), .customLong("name")], help: "The flavorspec's name.")
    var name: String

    func run() throws {
        try printJSON(JSONValue.parse(catalog.reference.open().flavorspecs.load(name).encoded()))
    }
}
