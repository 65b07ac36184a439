import ArgumentParser

struct CatalogListAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:list",
        abstract: "The Python tool's spelling of list.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("d"), .customLong("distro")], help: "Show only bundles with this distribution.")
    var distro: String?

    @Flag(help: "Print bundle names only.")
    var noVersions = false

    func run() throws {
        try ListCatalog.show(catalog: CatalogReference(text: catalog), distro: distro, namesOnly: noVersions, json: false)
    }
}
