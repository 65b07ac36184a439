import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            and kept for a later run, each kind on a line of its own: files that left the index \
            at a recorded time, files an interrupted import wrote that no index ever listed \
            (kept the grace period from the interruption), and files with no record of when \
            they left the index (counted from this run, which records them with --force). \
            clean waits for running imports to finish and holds new ones back while it works, \
            so it never takes their objects for garbage.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Flag(help: "Remove the files; without it, only list them.")
    var force = false

    @OptionGroup var grace: GraceOption

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @Flag(help: "Print one JSON document instead (see docs/JSON.md).")
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
            let clean = CatalogClean(catalog, grace: grace)
            report = try force ? clean.run(progress: { bar.show($0) }) : clean.plan().report
        }
        if json {
            return try printJSON(Report(report))
        }
        for file in report.files { print(file.path) }
        printSummary(report, grace: grace)
    }

    /// The closing lines of a clean: what was (or would be) removed, and what waits.
    static func printSummary(_ report: CleanReport, grace: Duration) {
        print("\(report.removed ? "Removed" : "Would remove") \(files(report.files.count)) (\(HumanFormat.bytes(report.totalBytes)))")
        printWaiting(report.waitingGroups, grace: grace)
    }

    /// One line per kind of file kept, saying what the files are: out of the index since
    /// a recorded time, written by an interrupted import and never listed, or found out
    /// of the index with no record of when (counted from now).
    static func printWaiting(_ groups: [CleanReport.Waiting], grace: Duration) {
        for group in groups {
            let kept = "Kept \(files(group.files.count)) (\(HumanFormat.bytes(group.bytes)))"
            let until = "removable from \(GraceOption.describe(group.until))"
            let latest = GraceOption.describe(group.until.addingTimeInterval(-grace.inSeconds))
            let since = GraceOption.describe(group.since)
            switch group.reason {
            case .leftIndex:
                let when = since == latest ? "at \(since)" : "between \(since) and \(latest)"
                print("\(kept) that left the index \(when), for clients that may still hold it; \(until)")
            case .neverListed:
                print("\(kept) that no index ever listed, written by an import interrupted at \(since); \(until)")
            case .unrecorded:
                print(
                    "\(kept) that no index lists, with no record of when they left it: counted from now, "
                        + "for clients that may still hold an index listing them; \(until)")
            }
        }
    }

    static func files(_ count: Int) -> String { "\(HumanFormat.count(count)) file\(count == 1 ? "" : "s")" }
}

extension Clean {
    /// `{"removed": BOOL, "files": [{"path", "size"}], "bytes", "waiting": {"files", "bytes", "until", "kinds"}}`;
    /// `until` is null when nothing waits; `kinds` is `[{"kind", "files", "bytes", "since", "until"}]`, one
    /// per kind of file kept: `left_index` (since when they left it), `never_listed` (an
    /// interrupted import's, since the interruption), `unrecorded` (no record: since now).
    /// Times are as the text output words them (`GraceOption.describe`).
    struct Report: Encodable {
        let report: CleanReport

        init(_ report: CleanReport) { self.report = report }

        private enum CodingKeys: CodingKey { case removed, files, bytes, waiting }

        private enum WaitingKeys: CodingKey { case files, bytes, until, kinds }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(report.removed, forKey: .removed)
            try container.encode(report.files.map(File.init), forKey: .files)
            try container.encode(report.totalBytes, forKey: .bytes)
            var waiting = container.nestedContainer(keyedBy: WaitingKeys.self, forKey: .waiting)
            try waiting.encode(report.waiting.count, forKey: .files)
            try waiting.encode(report.waitingBytes, forKey: .bytes)
            try waiting.encode(report.waitingUntil.map(GraceOption.describe), forKey: .until)
            try waiting.encode(report.waitingGroups.map(Kind.init), forKey: .kinds)
        }

        /// `{"path", "size"}`.
        struct File: Encodable {
            let path: String
            let size: Int64

            init(_ file: CleanReport.Garbage) { (path, size) = (file.path, file.size) }
        }

        /// One kind of file kept: `{"kind", "files", "bytes", "since", "until"}`.
        struct Kind: Encodable {
            let kind: String
            let files: Int
            let bytes: Int64
            let since: String
            let until: String

            init(_ group: CleanReport.Waiting) {
                kind =
                    switch group.reason {
                    case .leftIndex: "left_index"
                    case .neverListed: "never_listed"
                    case .unrecorded: "unrecorded"
                    }
                (files, bytes) = (group.files.count, group.bytes)
                (since, until) = (GraceOption.describe(group.since), GraceOption.describe(group.until))
            }
        }
    }
}
