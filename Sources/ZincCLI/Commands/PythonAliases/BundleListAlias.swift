import ArgumentParser

struct BundleListAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:list",
        abstract: "The Python tool's spelling of list_bundle.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonBundleVersionOptions

    @Flag(help: "Print each file's SHA-1 before its path.")
    var sha = false

    @Option(help: "List only the files of this flavor.")
    var flavor: String?

    func run() throws {
        try ListBundle.show(catalog: CatalogReference(text: target.catalog), bundle: target.bundle, version: target.version, flavor: flavor,
                            withSHA: sha, json: false)
    }
}
