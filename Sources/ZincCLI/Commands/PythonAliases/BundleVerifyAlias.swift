import ArgumentParser

struct BundleVerifyAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:verify",
        abstract: "The Python tool's spelling of verify for one bundle, or one version of it.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("v"), .customLong("version")], help: "A version number, :latest or @DISTRO (all versions without it).")
    var version: String?

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Verify.verify(
            catalog: catalog.reference, bundle: bundle, version: version, json: PythonGlobalOptions.current.format == .json, quiet: quiet)
    }
}
