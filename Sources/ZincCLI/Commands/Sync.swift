import ArgumentParser
import Zinc
import ZincClient

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring every tracked bundle of a client repo to the version its distro points at.",
        discussion: """
            Fetches each catalog's index (If-None-Match), then for each bundle whose version \
            changed its manifest and the objects the repo lacks, by the cheapest of: each \
            object by itself (--concurrency at once), the whole archive, or one range request \
            for the front of the LMFO archive. Cost = bytes + a round trip's worth of bytes per \
            round of requests, from the link to the catalog as measured by this and earlier \
            syncs (kept per host in the repo's links.json), or --request-cost. Every object's SHA-1 is \
            verified before it is kept. A bundle switches to its new version only once its \
            folder is complete; versions and objects nothing uses any more are then removed. \
            An interrupted sync resumes where it stopped.
            """
    )

    enum StrategyChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, objects, archive, lmfo
    }

    @OptionGroup var repo: RepoOption

    @Option(help: "How to download missing objects: auto (cost model), objects, archive or lmfo.")
    var strategy = StrategyChoice.auto

    @Option(
        help: ArgumentHelp(
            "The cost of one round of requests in bytes, for the auto strategy (default: as the link measures).",
            valueName: "BYTES"))
    var requestCost: Int64?

    @Option(help: ArgumentHelp("Objects fetched at once, each on a connection of its own.", valueName: "N"))
    var concurrency = SyncOptions.defaultConcurrency

    @Flag(help: "Print one JSON document with the catalogs fetched and, per bundle, strategy, bytes, requests and seconds.")
    var json = false

    /// What Ctrl-C leaves: as the client's cancellation does (CLIENT.md, "Cancelling").
    static var interrupted: String {
        "zinc: interrupted: each bundle is at the version it had, or at its new one where the switch was made; "
            + "what was downloaded and verified is kept, partial downloads stay in the repo's tmp/, "
            + "and \(InterruptNotice.rerun) resumes without downloading them again\n"
    }

    static let nothingTracked = "Nothing to sync: the repo tracks no bundle (add one with 'zinc track')."

    func validate() throws {
        guard (requestCost ?? 0) >= 0 else { throw ValidationError("--request-cost must not be negative.") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64.") }
        let modes = [
            dryRun ? "--dry-run" : nil, exportDownloads.map { _ in "--export-downloads" }, applyDownloads.map { _ in "--apply-downloads" },
        ]
        .compactMap { $0 }
        guard modes.count <= 1 else { throw ValidationError("\(modes.joined(separator: " and ")) cannot be used together.") }
    }

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    /// This sync's, set over those the repo keeps.
    @OptionGroup var attributes: AttributeOption

    @Flag(
        help: ArgumentHelp(
            "Download nothing: print, per bundle, the version it would move to and the bytes and requests it would take.",
            discussion: "The indexes and manifests are fetched (and kept, so the sync to come does not fetch them again)."))
    var dryRun = false

    @Option(
        help: ArgumentHelp(
            "Skip (and say so) each bundle whose update would download more than this (500k, 50MB, 1.5G).",
            valueName: "BYTES"))
    var maxBytes: ByteCount?

    @Option(
        help: ArgumentHelp(
            "Download nothing: write the sync's downloads to FILE (JSON), for another downloader to make.",
            discussion: "As with --dry-run, the indexes and manifests are fetched; the plan is printed.",
            valueName: "FILE"))
    var exportDownloads: String?

    @Option(
        help: ArgumentHelp(
            "Sync to the versions FILE (written by --export-downloads) was made for, taking what its downloads brought.",
            discussion: "Each file is verified; what is missing or wrong is fetched; what the downloads left is removed.",
            valueName: "FILE"))
    var applyDownloads: String?

    func run() throws {
        let bar = ProgressBar(quiet: quiet || json)
        var options = SyncOptions.command
        options.strategy = FetchStrategy(rawValue: strategy.rawValue)
        options.costModel = requestCost.map { CostModel(requestOverhead: $0, concurrency: concurrency) }
        options.concurrency = concurrency
        // With no bar to draw, no one listens: the sync counts nothing for progress.
        if bar.isShown { options.progress = Self.drawing(on: bar) }
        options.maxBytes = maxBytes?.value
        options.attributes = try attributes.parsed()
        let opened = try repo.open()
        // The first request would wait for libcurl to load: it loads meanwhile.
        prepareDefaultTransport(for: opened)
        if dryRun { return try printPlan(SyncEngine(repo: opened, options: options).plan()) }
        if let exportDownloads {
            let (plan, downloads) = try SyncEngine(repo: opened, options: options).exportDownloads()
            try Self.write(downloads, to: exportDownloads)
            return try printPlan(plan)
        }
        let downloads = try applyDownloads.map(Self.readDownloads)
        let report: SyncReport
        do {
            let engine = SyncEngine(repo: opened, options: options)
            report = try InterruptNotice.run(bar: bar, message: { Self.interrupted }) {
                try downloads.map(engine.applyDownloads) ?? engine.sync()
            }
            bar.finish()
        } catch {
            bar.finish()  // the error starts on a line of its own
            throw error
        }
        if json {
            try printJSON(report)
        } else if report.bundles.isEmpty && report.catalogs.isEmpty {
            print(Self.nothingTracked)
        } else {
            for catalog in report.catalogs where catalog.error != nil {
                print("\(catalog.catalog): index not refreshed: \(catalog.error!)")
            }
            for catalog in report.catalogs {
                for failure in catalog.sourceFailures { print("\(catalog.catalog): source failed: \(failure)") }
                for note in catalog.sourceNotes { print("\(catalog.catalog): \(note)") }
            }
            for bundle in report.bundles { print(bundle.line) }
        }
        let failures = report.bundles.filter { $0.error != nil }.count
        if failures > 0 { throw CLIError.bundlesFailedToSync(failed: failures, total: report.bundles.count) }
    }

    /// Draws a bundle's download on `bar`, with the whole sync's bytes when there are several.
    private static func drawing(on bar: ProgressBar) -> @Sendable (SyncProgress) -> Void {
        { progress in
            guard progress.phase == .downloading else { return }
            let overall =
                progress.overallTotalBytes > progress.totalBytes
                ? "\(HumanFormat.bytes(progress.overallCompletedBytes))/\(HumanFormat.bytes(progress.overallTotalBytes)) in all" : nil
            bar.update(
                "Syncing \(progress.bundle)", files: progress.completedObjects, of: progress.totalObjects,
                bytes: progress.completedBytes, of: progress.totalBytes, note: overall)
        }
    }

    private static func write(_ downloads: DownloadPlan, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Written whole or not at all: a downloader never reads half a plan.
        guard FileManager.default.createFile(atPath: path, contents: try encoder.encode(downloads)) else {
            throw CLIError.downloadsFile(path, reason: "cannot write the downloads there (\(String(cString: strerror(errno))))")
        }
    }

    private static func readDownloads(_ path: String) throws -> DownloadPlan {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CLIError.downloadsFile(path, reason: "cannot read the downloads (\(String(cString: strerror(errno))))")
        }
        do { return try JSONDecoder().decode(DownloadPlan.self, from: bytes) } catch {
            throw CLIError.downloadsFile(path, reason: "not a plan of downloads (zinc sync --export-downloads writes one): \(error)")
        }
    }

    private func printPlan(_ plan: SyncPlan) throws {
        if json { return try printJSON(plan) }
        if plan.bundles.isEmpty { print(Self.nothingTracked) }
        for bundle in plan.bundles {
            let over = maxBytes.map { bundle.bytes > $0.value } ?? false
            print(bundle.line + (over ? " (over --max-bytes: would be skipped)" : ""))
        }
        let failures = plan.bundles.filter { $0.failure != nil }.count
        if failures > 0 { throw CLIError.bundlesFailedToSync(failed: failures, total: plan.bundles.count) }
    }
}
