import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct UpdateFlavorspec: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update_flavorspec",
        abstract: "Store a flavorspec in the catalog, for update_bundle --flavors NAME.",
        discussion: """
            The file is a JSON object of flavor name -> rules "+ PATTERN" / "- PATTERN". It is \
            validated, then stored as config/flavorspecs/NAME.json, replacing one stored under \
            that name before.
            """,
        aliases: ["update-flavorspec"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: "The flavorspec file.")
    var path: String

    @Option(help: "The name to store it under (default: the file's name without .json).")
    var name: String?

    func run() throws {
        try Self.store(catalog: try catalog.reference, path: path, name: name)
    }

    /// The whole command, shared with its Python-tool spelling `flavorspec:update`.
    static func store(catalog location: CatalogReference, path: String, name: String?) throws {
        let catalog = try location.open()
        guard let spec = try Flavorspec.load(file: path) else {
            throw ZincError.flavorspecFileNotFound(path)
        }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let storedName = name ?? (fileName.hasSuffix(".json") ? String(fileName.dropLast(".json".count)) : fileName)
        try catalog.flavorspecs.save(spec, as: storedName)
        print("Stored flavorspec '\(storedName)'")
    }
}
