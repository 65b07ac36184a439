import ArgumentParser
import Logging
import Zinc

struct DebugFlavorsAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug:flavors",
        abstract:
            "The Python tool's debug:flavors: for each flavor of a flavorspec file, which files of a folder it takes (+) or leaves out (-).",
        shouldDisplay: false
    )

    @Option(help: "The flavorspec file.")
    var flavors: String

    @Option(name: [.customShort("p"), .customLong("path")], help: "The folder, chosen as update_bundle chooses its files.")
    var path = "."

    func run() throws {
        guard let spec = try Flavorspec.load(file: flavors) else {
            throw ZincError.flavorspecFileNotFound(flavors)
        }
        let files = try spec.assignment(ofSource: path) { Logger(label: "zinc").warning("\($0)") }
        for flavor in spec.names {
            print("[\(flavor)]")
            for file in files { print("\(file.flavors.contains(flavor) ? "+" : "-") \(file.path)") }
            print("")
        }
    }
}
