import ArgumentParser

struct BundleUpdateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:update",
        abstract: "The Python tool's spelling of update_bundle; prints only the version number, as that tool does.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("p"), .customLong("path")], help: "The folder to import.")
    var path: String

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Create a new version even when nothing changed.")
    var force = false

    @OptionGroup var options: ImportOptions

    func run() throws {
        try reportingErrors {
            switch try UpdateBundle.importVersion(catalog: CatalogReference(text: catalog), bundle: bundle, source: path, force: force,
                                                 options: options, quiet: options.quiet).result {
            case .created(let version), .unchanged(let version):
                print(version)
            }
        }
    }
}
