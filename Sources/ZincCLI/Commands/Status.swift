import ArgumentParser
import Zinc
import ZincClient

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the tracked bundles of a client repo: local version, remote version, bytes on disk.",
        discussion: """
            The remote version is the distro's version in the index the last sync or track fetched: status does \
            not use the network unless given --fetch, which asks the servers first (and says what each update \
            would download, as 'sync --dry-run' does).
            """
    )

    @OptionGroup var repo: RepoOption

    @Flag(
        help:
            "Print one JSON document: {\"bundles\": [{\"catalog\", \"bundle\", \"distro\", \"local_version\", \"remote_version\", \"files\", \"bytes_on_disk\", \"folder\", \"damaged_files\", \"follows\": {\"version\", \"code\", \"reason\"}}]}."
    )
    var json = false

    @Flag(help: "Fetch each catalog's index (and the manifests of new versions) first, and give the download each update needs.")
    var fetch = false

    func run() throws {
        let opened = try repo.open()
        let plan = fetch ? try SyncEngine(repo: opened, options: .command).plan() : nil
        let bundles = try opened.status()
        if json {
            return try printJSON(Report(bundles: bundles, plan: plan))
        }
        for failed in plan?.bundles.filter({ $0.failure != nil }) ?? [] { print(failed.line) }
        for bundle in bundles {
            let local = bundle.localVersion.map(String.init) ?? "-"
            let remote = bundle.remoteVersion.map(String.init) ?? "-"
            let flavor = bundle.flavor.map { "~" + $0 } ?? ""
            var state =
                bundle.localVersion == nil
                ? "not synced"
                : bundle.localVersion == (bundle.follows?.version ?? bundle.remoteVersion) ? "up to date" : "update available"
            if let planned = plan?.bundles.first(where: { $0.catalog == bundle.catalog && $0.bundle == bundle.bundle }),
                planned.action == .update || planned.action == .repair
            {
                state += ": \(HumanFormat.bytes(planned.bytes)) in \(HumanFormat.count(planned.requests, "request"))"
            }
            if let follows = bundle.follows { state += "; \(follows.line)" }
            if let health = bundle.health, !health.isHealthy {
                state += "; damaged: \(HumanFormat.count(health.damagedFiles.count, "file")) not as synced, \(repo.hint("sync")) repairs it"
            }
            print(
                "\(bundle.catalog).\(bundle.bundle)\(flavor) @\(bundle.distro): local \(local), remote \(remote), "
                    + "\(HumanFormat.count(bundle.files)) files, \(HumanFormat.bytes(bundle.bytesOnDisk)) (\(state))")
        }
    }
}

extension Status {
    /// `status --json`: the bundles, and with `--fetch` the plan of a sync.
    struct Report: Encodable {
        let bundles: [BundleStatus]
        let plan: SyncPlan?
    }
}
