import ArgumentParser
import Zinc

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete all but the newest versions of bundles, then clean.",
        discussion: """
            Every version keeps a full archive, so a bundle imported nightly grows by its \
            size every night. prune deletes, in each bundle (or only --bundle), every \
            version but the newest --keep-last N, never one that a distribution or a _DISTRO \
            pointer names, then runs 'clean --force' with the grace period: the files of the \
            deleted versions stay that long for clients holding the old index, and a later \
            clean (or prune) removes them. --dry-run changes nothing and says how much the \
            deletions would free.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Option(help: "Prune only this bundle (repeatable); all bundles without it.")
    var bundle: [String] = []

    @Option(help: ArgumentHelp("Keep this many of the newest versions of each bundle.", valueName: "n"))
    var keepLast: Int

    @Flag(help: "Only print what would be deleted and freed.")
    var dryRun = false

    @OptionGroup var grace: GraceOption

    @Flag(help: "Print one JSON document instead (see docs/JSON.md).")
    var json = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    func validate() throws {
        guard keepLast >= 1 else { throw ValidationError("--keep-last must be 1 or more, not \(keepLast)") }
    }

    func run() throws {
        let report: PruneReport
        do {
            let catalog = try catalog.reference.signed(by: signing).open()
            let bar = ProgressBar(quiet: quiet || json)
            defer { bar.finish() }
            let prune = Zinc.Prune(catalog, bundles: bundle.isEmpty ? nil : bundle, keepLast: keepLast, grace: grace.duration)
            report = try dryRun ? prune.plan().report : prune.run(progress: { bar.show($0) })
        }
        if json {
            return try printJSON(Report(report: report))
        }
        for deletion in report.deletions {
            let kept =
                report.keptReferenced[deletion.bundle].map { versions in
                    " (kept \(Self.list(versions)), which distributions name)"
                } ?? ""
            if deletion.versions.isEmpty {
                print("'\(deletion.bundle)': nothing to delete\(kept)")
            } else {
                let plural = deletion.versions.count == 1 ? "" : "s"
                print(
                    "\(dryRun ? "Would delete" : "Deleted") version\(plural) \(Self.list(deletion.versions)) of '\(deletion.bundle)'\(kept)"
                )
            }
        }
        guard !report.performed else { return Clean.printSummary(report.clean, grace: grace.duration) }
        let bytes = report.wouldFree.reduce(0) { $0 + $1.size }
        print(
            "Would free \(Clean.files(report.wouldFree.count)) (\(HumanFormat.bytes(bytes))), "
                + "removed by a clean \(GraceOption.describe(grace.duration)) after the deletion")
        // The same plan also removes what was garbage before the deletions.
        let freed = Set(report.wouldFree.map(\.path))
        let other = report.clean.files.filter { !freed.contains($0.path) }
        if !other.isEmpty {
            print(
                "Would also remove \(Clean.files(other.count)) (\(HumanFormat.bytes(other.reduce(0) { $0 + $1.size }))) "
                    + "that no version referred to before")
        }
    }

    private static func list(_ versions: [Int]) -> String { versions.map(String.init).joined(separator: ", ") }
}

extension Prune {
    /// `{"dry_run", "bundles": [{"bundle", "deleted_versions", "kept_referenced"}], "clean": CLEAN,
    /// "would_free": {"files", "bytes"} or null}`, CLEAN as `clean --json` prints it (in a dry
    /// run, the clean that would follow: `"removed": false`); `would_free` only in a dry run.
    struct Report: Encodable {
        let report: PruneReport

        private enum CodingKeys: CodingKey { case dryRun, bundles, clean, wouldFree }

        private enum BundleKeys: CodingKey { case bundle, deletedVersions, keptReferenced }

        private enum FreedKeys: CodingKey { case files, bytes }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(!report.performed, forKey: .dryRun)
            var bundles = container.nestedUnkeyedContainer(forKey: .bundles)
            for deletion in report.deletions {
                var bundle = bundles.nestedContainer(keyedBy: BundleKeys.self)
                try bundle.encode(deletion.bundle, forKey: .bundle)
                try bundle.encode(deletion.versions, forKey: .deletedVersions)
                try bundle.encode(report.keptReferenced[deletion.bundle] ?? [], forKey: .keptReferenced)
            }
            try container.encode(Clean.Report(report.clean), forKey: .clean)
            guard !report.performed else { return try container.encodeNil(forKey: .wouldFree) }
            var freed = container.nestedContainer(keyedBy: FreedKeys.self, forKey: .wouldFree)
            try freed.encode(report.wouldFree.count, forKey: .files)
            try freed.encode(report.wouldFree.reduce(0) { $0 + $1.size }, forKey: .bytes)
        }
    }
}
