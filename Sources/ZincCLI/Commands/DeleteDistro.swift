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

    @OptionGroup var signing: SigningOption

    @Option(name: [.customLong("bundle"), .customLong("id")], help: "The bundle name (--id is a synonym).")
    var id: String

    @Option(name: [.customLong("distro"), .customLong("name")], help: "The distribution name (--name is a synonym).")
    var name: String

    @Flag(help: "Delete the distribution even while a rollout of it is live (which ends the rollout).")
    var force = false

    @Flag(help: "Print one JSON document instead: {\"bundle\", \"distro\", \"version\"} (the version it pointed at).")
    var json = false

    func run() throws {
        try Self.delete(catalog: try catalog.reference.signed(by: signing), bundle: id, distro: name, force: force, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `distro:delete`.
    static func delete(
        catalog location: CatalogReference, bundle: String, distro: String, force: Bool = false, json: Bool = false
    ) throws {
        let catalog = try location.open()
        let version = try DistroDeletion(catalog, bundle: bundle, distro: distro, force: force).run().version
        if json {
            try printJSON(Report(bundle: bundle, distro: distro, version: version))
        } else {
            print("Deleted distribution '\(distro)' of '\(bundle)' (it pointed at version \(version))")
        }
    }
}

extension DeleteDistro {
    /// `delete_distro --json`: the distribution deleted and the version it pointed at.
    struct Report: Encodable {
        let bundle: String
        let distro: String
        let version: Int
    }
}
