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
            try printJSONLine(Line(bundleName: bundle.name, versions: bundle.versions.map(\.number), distros: distros))
        }
    }
}

extension CatalogListAlias {
    /// One line of that tool's `--format json` listing: `{"bundle_name", "versions", "distros"}`.
    struct Line: Encodable {
        let bundleName: String
        let versions: [Int]
        let distros: [String]
    }
}
