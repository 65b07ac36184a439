import ArgumentParser

struct CatalogCleanAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:clean",
        abstract: "The Python tool's spelling of clean.",
        shouldDisplay: false
    )

    @OptionGroup var catalog: PythonCatalogOption

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Remove the files; without it, only list them.")
    var force = false

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var grace: GraceOption

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Clean.clean(catalog: catalog.reference, force: force, grace: grace.duration, quiet: quiet)
    }
}
