import ArgumentParser

struct CatalogVerifyAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:verify",
        abstract: "The Python tool's spelling of verify for a whole catalog.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Verify.verify(
            catalog: catalog.reference, bundle: nil, version: nil, json: PythonGlobalOptions.current.format == .json, quiet: quiet)
    }
}
