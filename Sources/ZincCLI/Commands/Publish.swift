import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Copy a catalog to a bucket or folder, index last, so readers never see a missing file.",
        discussion: """
            Objects, archives and manifests go first, then flavorspecs and config, and the \
            four index files last, so that at no moment can a reader of the destination \
            find an index that refers to something not uploaded yet. Files already there \
            are skipped, so a re-run (or a run after an interruption) uploads only the rest. \
            The destination's index is replaced by compare-and-swap, and only when every \
            version it lists is in the source: a publish never drops what another writer \
            added there. With --delete, files the source no longer has are removed once the \
            new index is in place and no index published within --grace seconds lists them.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: ArgumentHelp("Where to publish: s3://BUCKET/PREFIX, a path or a file:// URL.", valueName: "location"))
    var to: String

    @Flag(help: "Only say what would be uploaded and deleted.")
    var dryRun = false

    @Flag(help: "Remove destination files the source no longer has (after the new index is in place).")
    var delete = false

    @OptionGroup var grace: GraceOption

    @Option(help: "Uploads in flight at once (default: 16 for a bucket, one per core for a folder).")
    var jobs: Int?

    @Flag(help: "Print one JSON object (see the README) instead of text.")
    var json = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }

    func run() throws {
        let started = ContinuousClock.now
        let report: PublishReport, published: String
        do {
            let source = try catalog.reference.open()
            let destination = try storageRegistry.destinationStorage(to, options: catalog.remote.storageOptions)
            let bar = ProgressBar(quiet: quiet || json)
            defer { bar.finish() }
            let options = PublishOptions(dryRun: dryRun, delete: delete, grace: grace.duration, workers: jobs) { bar.show($0) }
            (report, published) = (try source.publish(to: destination, options: options), destination.location)
        }
        let elapsed = ContinuousClock.now - started
        if json {
            printJSON(report.json(seconds: elapsed.inSeconds))
            return
        }
        let verb = report.performed ? "Uploaded" : "Would upload"
        print(
            "\(verb) \(files(report.uploaded.count)) (\(HumanFormat.bytes(report.uploadedBytes))) to \(published); "
                + "\(files(report.unchanged)) already there")
        print(report.indexChanged ? "\(report.performed ? "Replaced" : "Would replace") the index" : "The index is up to date")
        if delete {
            print(
                "\(report.performed ? "Deleted" : "Would delete") \(files(report.deleted.count)) (\(HumanFormat.bytes(report.deletedBytes)))"
            )
        }
        if let until = report.waitingUntil, report.waiting > 0 {
            print(
                "Kept \(files(report.waiting)) that left the index less than \(GraceOption.describe(grace.duration)) ago, "
                    + "for clients that may still hold it; removable from \(GraceOption.describe(until))")
        }
    }

    private func files(_ count: Int) -> String { Clean.files(count) }
}
