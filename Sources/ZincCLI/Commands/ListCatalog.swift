import ArgumentParser
import Zinc

struct ListCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bundles of a catalog with their versions and distributions.",
        discussion: """
            One line per bundle, sorted: 'BasicAdjectives [1=(_master), 2=(master, test)]' \
            (a version no distribution points at shows as just its number; _NAME is the \
            version NAME pointed at before its last change). With --distro, only the bundles \
            that have that distribution, each with the version it points at.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: "Show only bundles with this distribution, at the version it points at.")
    var distro: String?

    @Flag(help: "Print bundle names only (text output).")
    var noVersions = false

    @Flag(help: "Print one JSON document: {\"catalog\", \"bundles\": [{\"name\", \"versions\": [{\"version\", \"distributions\"}]}]}.")
    var json = false

    func run() throws {
        try Self.show(catalog: try catalog.reference, distro: distro, namesOnly: noVersions, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `catalog:list`.
    static func show(catalog location: CatalogReference, distro: String?, namesOnly: Bool, json: Bool) throws {
        let catalog = try location.open()
        let bundles = try catalog.listBundles(distro: distro)
        if json {
            printJSON(
                .object([
                    "catalog": .string(try catalog.index().id),
                    "bundles": .array(
                        bundles.map { bundle in
                            .object([
                                "name": .string(bundle.name),
                                "versions": .array(
                                    bundle.versions.map { version in
                                        .object([
                                            "version": .int(Int64(version.number)),
                                            "distributions": .array(version.distributions.map { .string($0) }),
                                        ])
                                    }),
                            ])
                        }),
                ]))
            return
        }
        for bundle in bundles {
            guard !namesOnly else {
                print(bundle.name)
                continue
            }
            let versions = bundle.versions.map { version in
                version.distributions.isEmpty
                    ? "\(version.number)" : "\(version.number)=(\(version.distributions.joined(separator: ", ")))"
            }
            print("\(bundle.name) [\(versions.joined(separator: ", "))]")
        }
    }
}
