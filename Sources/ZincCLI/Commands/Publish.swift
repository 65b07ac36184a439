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
            added there. When the new index drops versions, publish records at the \
            destination when their files left its index (in retired/, which clients never \
            read), with or without --delete. With --delete, files the source no longer has \
            are removed once the new index is in place and no index published within --grace \
            seconds lists them: counted from that record, or from this run where there is \
            none. --dry-run plans the same run and lists its files by kind (every file with \
            --verbose). On a bucket, a large object or an archive whose bytes are mostly \
            there already is assembled there from them, and only the new bytes are sent.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: ArgumentHelp("Where to publish: s3://BUCKET/PREFIX, a path or a file:// URL.", valueName: "location"))
    var to: String

    @Flag(help: "Only say what would be uploaded and deleted.")
    var dryRun = false

    @Flag(help: "List every file uploaded and deleted (or, with --dry-run, that would be).")
    var verbose = false

    @Flag(help: "Remove destination files the source no longer has (after the new index is in place).")
    var delete = false

    @OptionGroup var grace: GraceOption

    @Option(help: "Uploads in flight at once (default: 16 for a bucket, one per core for a folder).")
    var jobs: Int?

    @Flag(help: "Print one JSON object (see docs/JSON.md) instead of text.")
    var json = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }

    /// What Ctrl-C leaves: the index files go up last, after everything they list.
    static var interrupted: String {
        "zinc: interrupted: the destination serves the index it had, or the new one if its upload had begun, "
            + "each with every file it lists; \(InterruptNotice.rerun) uploads only what is still missing\n"
    }

    func run() throws {
        let started = ContinuousClock.now
        let report: PublishReport, published: String
        do {
            let source = try catalog.reference.open()
            let destination = try catalog.remote.registry.destinationStorage(to)
            let bar = ProgressBar(quiet: quiet || json)
            defer { bar.finish() }
            let publish = CatalogPublish(source, to: destination, delete: delete, grace: grace.duration, workers: jobs)
            (report, published) = (
                try dryRun
                    ? publish.plan().report
                    : InterruptNotice.run(bar: bar, message: { Self.interrupted }) { try publish.run(progress: { bar.show($0) }) },
                destination.location
            )
        } catch let error as ZincError {
            let destination = CatalogReference(text: to, endpointURL: catalog.remote.endpointURL)
            throw PublishConflict(error, source: try catalog.reference, destination: destination) ?? error
        }
        let elapsed = ContinuousClock.now - started
        if json {
            return try printJSON(Report(report: report, seconds: elapsed.inSeconds))
        }
        let verb = report.performed ? "Uploaded" : "Would upload"
        print(
            "\(verb) \(files(report.uploaded.count)) (\(HumanFormat.bytes(report.uploadedBytes))) to \(published); "
                + "\(files(report.unchanged)) already there")
        if report.assembled > 0 {
            print(
                "\(report.performed ? "Assembled" : "Would assemble") \(report.assembled) of them there, copying "
                    + "\(HumanFormat.bytes(report.copiedBytes)) it already held")
        }
        list(report.uploaded, marked: "+", summarized: !report.performed)
        print(report.indexChanged ? "\(report.performed ? "Replaced" : "Would replace") the index" : "The index is up to date")
        if !report.retired.isEmpty {
            let what = "that \(files(report.retired.count)) of versions the new index no longer lists left it"
            if report.performed {
                let removable = GraceOption.describe(Date().addingTimeInterval(grace.duration.inSeconds))
                print("Recorded \(what) now; publish --delete removes them from \(removable)")
            } else {
                print("Would record \(what)")
            }
        }
        if delete {
            print(
                "\(report.performed ? "Deleted" : "Would delete") \(files(report.deleted.count)) (\(HumanFormat.bytes(report.deletedBytes)))"
            )
            list(report.deleted, marked: "-", summarized: !report.performed)
        }
        Clean.printWaiting(report.waitingGroups, grace: grace.duration)
    }

    /// With --verbose every file, one a line after `mark`; otherwise, when `summarized`
    /// (a dry run), one line per kind of file (its folder) with counts and bytes.
    private func list(_ entries: [StorageEntry], marked mark: String, summarized: Bool) {
        if verbose {
            for entry in entries { print("  \(mark) \(entry.path) (\(HumanFormat.bytes(entry.size)))") }
            return
        }
        guard summarized else { return }
        var kinds = [String: (count: Int, bytes: Int64)]()
        for entry in entries {
            let kind = Self.kind(of: entry.path)
            kinds[kind, default: (0, 0)].count += 1
            kinds[kind, default: (0, 0)].bytes += entry.size
        }
        for (kind, total) in kinds.sorted(by: { $0.key < $1.key }) {
            print("  \(mark) \(kind): \(files(total.count)) (\(HumanFormat.bytes(total.bytes)))")
        }
    }

    /// A file's kind, as the catalog's layout names it: its folder (`manifests`,
    /// `signatures/manifests`, `config/flavorspecs`), or the file itself at the top.
    private static func kind(of path: String) -> String {
        let parts = path.split(separator: "/")
        guard parts.count > 1 else { return path }
        if parts[0] == "signatures" || parts[0] == "config", parts.count > 2 { return parts[0...1].joined(separator: "/") }
        return String(parts[0])
    }

    private func files(_ count: Int) -> String { Clean.files(count) }
}

extension Publish {
    /// The summary `publish --json` prints (its schema is in docs/JSON.md): counts and
    /// bytes of what was (or would be) copied and removed, and the run's seconds to the
    /// millisecond.
    struct Report: Encodable {
        let report: PublishReport
        let seconds: Double

        private enum CodingKeys: CodingKey {
            case dryRun, uploaded, copied, unchanged, indexChanged, deleted, waiting, retired, seconds
        }

        private enum FileKeys: CodingKey { case files, bytes }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(!report.performed, forKey: .dryRun)
            var uploaded = container.nestedContainer(keyedBy: FileKeys.self, forKey: .uploaded)
            try uploaded.encode(report.uploaded.count, forKey: .files)
            try uploaded.encode(report.uploadedBytes, forKey: .bytes)
            var copied = container.nestedContainer(keyedBy: FileKeys.self, forKey: .copied)
            try copied.encode(report.assembled, forKey: .files)
            try copied.encode(report.copiedBytes, forKey: .bytes)
            try container.encode(report.unchanged, forKey: .unchanged)
            try container.encode(report.indexChanged, forKey: .indexChanged)
            var deleted = container.nestedContainer(keyedBy: FileKeys.self, forKey: .deleted)
            try deleted.encode(report.deleted.count, forKey: .files)
            try deleted.encode(report.deletedBytes, forKey: .bytes)
            try container.encode(report.waiting, forKey: .waiting)
            try container.encode(report.retired.count, forKey: .retired)
            try container.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
        }
    }
}
