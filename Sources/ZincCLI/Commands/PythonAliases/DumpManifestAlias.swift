import ArgumentParser

struct DumpManifestAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump:manifest",
        abstract: "The Python tool's spelling of dump_manifest.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonBundleVersionOptions

    func run() throws {
        try DumpManifest.dump(catalog: target.catalog.reference, bundle: target.bundle, version: target.version)
    }
}
