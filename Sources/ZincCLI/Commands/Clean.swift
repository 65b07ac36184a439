import ArgumentParser
import Zinc

struct Clean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the files no listed version refers to.",
        discussion: """
            Lists the objects, manifests and archives that no version in any copy of the index \
            refers to, and temporary files that interrupted writers left behind (their process \
            is gone, or they are more than an hour old), then the number of files and bytes. \
            Nothing is removed without --force. A file is removed only once it has been out of \
            the index for the grace period (5 minutes, the index's cache lifetime: a client or \
            CDN may hold an index that lists it until then); files still inside it are counted \
            and kept for a later run. clean waits for running imports to finish and holds new \
            ones back while it works, so it never takes their objects for garbage.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Flag(help: "Remove the files; without it, only list them.")
    var force = false

    @OptionGroup var grace: GraceOption

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func run() throws {
        try Self.clean(catalog: try catalog.reference, force: force, grace: grace.duration, quiet: quiet)
    }

    /// The whole command, shared with its Python-tool spelling `catalog:clean`.
    static func clean(catalog location: CatalogReference, force: Bool, grace: Duration, quiet: Bool) throws {
        let report = try reportingErrors {
            let catalog = try location.open()
            let bar = ProgressBar(quiet: quiet)
            defer { bar.finish() }
            return try catalog.clean(force: force, grace: grace) { bar.show($0) }
        }
        for file in report.files { print(file.path) }
        print("\(report.removed ? "Removed" : "Would remove") \(files(report.files.count)) (\(report.totalBytes) bytes)")
        if let until = report.waitingUntil {
            print("Kept \(files(report.waiting.count)) (\(report.waitingBytes) bytes) that left the index less than "
                  + "\(GraceOption.describe(grace)) ago, for clients that may still hold it; removable from \(GraceOption.describe(until))")
        }
    }

    private static func files(_ count: Int) -> String { "\(count) file\(count == 1 ? "" : "s")" }
}
