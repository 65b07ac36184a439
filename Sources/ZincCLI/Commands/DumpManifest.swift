import ArgumentParser
import Zinc

struct DumpManifest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump_manifest",
        abstract: "Print the manifest of one bundle version as indented JSON.",
        discussion: "The manifest as zinc reads it (validated; from the .gz when only that is stored), keys sorted.",
        aliases: ["dump-manifest"]
    )

    @OptionGroup var target: BundleVersionOptions

    func run() throws {
        try Self.dump(catalog: try target.catalog.reference, bundle: target.name, version: target.version)
    }

    /// The whole command, shared with its Python-tool spelling `dump:manifest`.
    static func dump(catalog location: CatalogReference, bundle: String, version: String) throws {
        let catalog = try location.open()
        try printJSON(catalog.manifest(bundle: bundle, resolving: VersionSpec(version, of: bundle, in: catalog)).json())
    }
}
