import ArgumentParser
import Zinc

struct DeleteDistro: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete_distro",
        abstract: "Delete a distribution of a bundle.",
        discussion: "Also removes _NAME, the pointer that kept the version NAME had before its last change.",
        aliases: ["delete-distro"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("id"), .customLong("bundle")], help: "The bundle name.")
    var id: String

    @Option(help: "The distribution name.")
    var name: String

    func run() throws {
        try Self.delete(catalog: try catalog.reference, bundle: id, distro: name)
    }

    /// The whole command, shared with its Python-tool spelling `distro:delete`.
    static func delete(catalog location: CatalogReference, bundle: String, distro: String) throws {
        try reportingErrors {
            let catalog = try location.open()
            let version = try catalog.deleteDistro(bundle: bundle, distro: distro)
            print("Deleted distribution '\(distro)' of '\(bundle)' (it pointed at version \(version))")
        }
    }
}
