import ArgumentParser

struct CatalogCleanAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:clean",
        abstract: "The Python tool's spelling of clean.",
        shouldDisplay: false
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Remove the files; without it, only list them.")
    var force = false

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var grace: GraceOption

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Clean.clean(catalog: CatalogReference(text: catalog), force: force, grace: grace.duration, quiet: quiet)
    }
}
