import ArgumentParser

struct BundleDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:delete",
        abstract: "The Python tool's spelling of delete_bundle.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(
        name: [.customShort("v"), .customLong("version")], parsing: .upToNextOption,
        help: "The versions to delete: numbers, :latest, @DISTRO, :all or :unreferenced.")
    var versions: [String]

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var signing: SigningOption

    @Flag(name: [.customShort("n"), .customLong("dry-run")], help: "Only print what would be deleted.")
    var dryRun = false

    func run() throws {
        try DeleteBundle.delete(catalog: catalog.reference.signed(by: signing), bundle: bundle, versions: versions, dryRun: dryRun)
    }
}
