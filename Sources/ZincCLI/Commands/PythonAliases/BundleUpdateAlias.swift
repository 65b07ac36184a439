import ArgumentParser

struct BundleUpdateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:update",
        abstract: "The Python tool's spelling of update_bundle; prints only the version number, as that tool does.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("p"), .customLong("path")], help: "The folder to import.")
    var path: String

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Create a new version even when nothing changed.")
    var force = false

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var signing: SigningOption

    @OptionGroup var options: ImportOptions

    /// The Python tool's spelling of the default: with --flavors, no all-files archive.
    @Flag(help: "With --flavors, write no archive of all files (the default; the opposite of --include-master-archive).")
    var skipMasterArchive = false

    func validate() throws {
        if skipMasterArchive && options.includeMasterArchive {
            throw ValidationError("give --skip-master-archive or --include-master-archive, not both")
        }
    }

    func run() throws {
        switch try UpdateBundle.importVersion(
            catalog: catalog.reference.signed(by: signing), bundle: bundle, source: path, force: force,
            options: options, quiet: options.quiet
        ).result {
        case .created(let version), .unchanged(let version):
            print(version)
        }
    }
}
