import ArgumentParser
import Zinc

struct ListBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list_bundle",
        abstract: "List the files of one bundle version.",
        discussion: "One path per line, sorted; with --sha each line is '<sha> <path>'.",
        aliases: ["list-bundle"]
    )

    @OptionGroup var target: BundleVersionOptions

    @Option(help: "List only the files of this flavor.")
    var flavor: String?

    @Flag(help: "Print each file's SHA-1 before its path.")
    var sha = false

    @Flag(help: "Print one JSON document: {\"catalog\", \"bundle\", \"version\", \"flavor\", \"files\": [{\"path\", \"sha\"}]}.")
    var json = false

    func run() throws {
        try Self.show(
            catalog: try target.catalog.reference, bundle: target.name, version: target.version, flavor: flavor,
            withSHA: sha, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `bundle:list`.
    static func show(
        catalog location: CatalogReference, bundle: String, version: String, flavor: String?,
        withSHA: Bool, json: Bool
    ) throws {
        let catalog = try location.open()
        let manifest = try catalog.manifest(bundle: bundle, resolving: VersionSpec(version))
        let paths = try manifest.paths(ofExistingFlavor: flavor)
        if json {
            printJSON(
                .object([
                    "catalog": .string(manifest.catalog),
                    "bundle": .string(manifest.bundle),
                    "version": .int(Int64(manifest.version)),
                    "flavor": flavor.map { .string($0) } ?? .null,
                    "files": .array(
                        paths.map { path in
                            .object(["path": .string(path), "sha": .string(manifest.files[path]!.sha)])
                        }),
                ]))
            return
        }
        for path in paths {
            print(withSHA ? "\(manifest.files[path]!.sha) \(path)" : path)
        }
    }
}
