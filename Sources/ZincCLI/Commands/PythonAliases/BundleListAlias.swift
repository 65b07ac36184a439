import ArgumentParser
import Zinc

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
        guard PythonGlobalOptions.current.format == .json else {
            return try ListBundle.show(
                catalog: target.catalog.reference, bundle: target.bundle,
                version: target.version, flavor: flavor, withSHA: sha, json: false)
        }
        // As that tool printed it: one object per file and line.
        let catalog = try target.catalog.reference.open()
        let manifest = try catalog.manifest(bundle: target.bundle, resolving: VersionSpec(target.version, of: target.bundle, in: catalog))
        for path in try manifest.paths(ofExistingFlavor: flavor) {
            try printJSONLine(Line(file: path, sha: manifest.files[path]!.sha))
        }
    }
}

extension BundleListAlias {
    /// One line of that tool's `--format json` listing: `{"file", "sha"}`.
    struct Line: Encodable {
        let file: String
        let sha: String
    }
}
