import ArgumentParser

struct BundleCloneAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle:clone",
        abstract: "The Python tool's spelling of clone_bundle.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonBundleVersionOptions

    @Option(name: [.customShort("p"), .customLong("path")], help: "The folder to clone into.")
    var path = "."

    @OptionGroup var options: CloneOptions

    func run() throws {
        try CloneBundle.clone(
            catalog: target.catalog.reference, bundle: target.bundle, version: target.version, into: path, options: options)
    }
}
