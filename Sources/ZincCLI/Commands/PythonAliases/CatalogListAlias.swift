import ArgumentParser
import Zinc

struct CatalogListAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:list",
        abstract: "The Python tool's spelling of list.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("d"), .customLong("distro")], help: "Show only bundles with this distribution.")
    var distro: String?

    @Flag(help: "Print bundle names only.")
    var noVersions = false

    func run() throws {
        guard PythonGlobalOptions.current.format == .json else {
            return try ListCatalog.show(catalog: catalog.reference, distro: distro, namesOnly: noVersions, json: false)
        }
        // As that tool printed it: one object per bundle and line.
        for bundle in try catalog.reference.open().listBundles(distro: distro) {
            let distros = Set(bundle.versions.flatMap(\.distributions)).sorted()
            printJSONLine(
                .object([
                    "bundle_name": .string(bundle.name),
                    "versions": .array(bundle.versions.map { .int(Int64($0.number)) }),
                    "distros": .array(distros.map { .string($0) }),
                ]))
        }
    }
}
