import ArgumentParser
import Zinc

struct Clean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the files no listed version refers to.",
        discussion: """
            Lists the objects, manifests and archives that no version in the index refers to, \
            and temporary files that interrupted writers left behind (their process is gone, \
            or they are more than an hour old), then the number of files and bytes. Nothing \
            is removed without --force. clean waits for running imports to finish and holds \
            new ones back while it works, so it never takes their objects for garbage.
            """
    )

    @Option(help: "The catalog: a path, file:// URL or the id of a catalog under catalogs/.")
    var catalog: String

    @Flag(help: "Remove the files; without it, only list them.")
    var force = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Self.clean(catalog: catalog, force: force, quiet: quiet)
    }

    /// The whole command, shared with its Python-tool spelling `catalog:clean`.
    static func clean(catalog location: String, force: Bool, quiet: Bool) throws {
        let report = try reportingErrors {
            let catalog = try Catalog.open(at: CatalogLocation.resolve(location))
            let bar = ProgressBar(quiet: quiet)
            defer { bar.finish() }
            return try catalog.clean(force: force) { bar.show($0) }
        }
        for file in report.files { print(file.path) }
        let count = report.files.count
        print("\(report.removed ? "Removed" : "Would remove") \(count) file\(count == 1 ? "" : "s") (\(report.totalBytes) bytes)")
    }
}
