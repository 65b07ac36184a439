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

    @Flag(help: "Print one JSON document instead (see the README's JSON output section).")
    var json = false

    func run() throws {
        try Self.clean(catalog: try catalog.reference, force: force, grace: grace.duration, quiet: quiet, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `catalog:clean`.
    static func clean(catalog location: CatalogReference, force: Bool, grace: Duration, quiet: Bool, json: Bool = false) throws {
        let report: CleanReport
        do {
            let catalog = try location.open()
            let bar = ProgressBar(quiet: quiet || json)
            defer { bar.finish() }
            report = try catalog.clean(force: force, grace: grace) { bar.show($0) }
        }
        if json {
            printJSON(Self.json(report))
            return
        }
        for file in report.files { print(file.path) }
        printSummary(report, grace: grace)
    }

    /// The closing lines of a clean: what was (or would be) removed, and what waits.
    static func printSummary(_ report: CleanReport, grace: Duration) {
        print("\(report.removed ? "Removed" : "Would remove") \(files(report.files.count)) (\(HumanFormat.bytes(report.totalBytes)))")
        if let until = report.waitingUntil {
            print(
                "Kept \(files(report.waiting.count)) (\(HumanFormat.bytes(report.waitingBytes))) that left the index less than "
                    + "\(GraceOption.describe(grace)) ago, for clients that may still hold it; removable from \(GraceOption.describe(until))"
            )
        }
    }

    /// `{"removed": BOOL, "files": [{"path", "size"}], "bytes", "waiting": {"files", "bytes", "until"}}`;
    /// `until` is null when nothing waits.
    static func json(_ report: CleanReport) -> JSONValue {
        .object([
            "removed": .bool(report.removed),
            "files": .array(report.files.map { .object(["path": .string($0.path), "size": .int($0.size)]) }),
            "bytes": .int(report.totalBytes),
            "waiting": .object([
                "files": .int(Int64(report.waiting.count)),
                "bytes": .int(report.waitingBytes),
                "until": report.waitingUntil.map { .string(GraceOption.describe($0)) } ?? .null,
            ]),
        ])
    }

    static func files(_ count: Int) -> String { "\(HumanFormat.count(count)) file\(count == 1 ? "" : "s")" }
}
