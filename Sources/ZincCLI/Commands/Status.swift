import ArgumentParser
import Zinc
import ZincClient

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the tracked bundles of a client repo: local version, remote version, bytes on disk.",
        discussion:
            "The remote version is the distro's version in the index the last sync or track fetched; status does not use the network."
    )

    @OptionGroup var repo: RepoOption

    @Flag(
        help:
            "Print one JSON document: {\"bundles\": [{\"catalog\", \"bundle\", \"distro\", \"local_version\", \"remote_version\", \"files\", \"bytes_on_disk\", \"folder\", \"damaged_files\"}]}."
    )
    var json = false

    func run() throws {
        let bundles = try repo.open().status()
        if json {
            printJSON(.object(["bundles": .array(bundles.map(\.json))]))
            return
        }
        for bundle in bundles {
            let local = bundle.localVersion.map(String.init) ?? "-"
            let remote = bundle.remoteVersion.map(String.init) ?? "-"
            let flavor = bundle.flavor.map { "~" + $0 } ?? ""
            var state =
                bundle.localVersion == nil
                ? "not synced"
                : bundle.localVersion == bundle.remoteVersion ? "up to date" : "update available"
            if let health = bundle.health, !health.isHealthy {
                state += "; damaged: \(HumanFormat.count(health.damagedFiles.count, "file")) not as synced, 'zinc sync' repairs it"
            }
            print(
                "\(bundle.catalog).\(bundle.bundle)\(flavor) @\(bundle.distro): local \(local), remote \(remote), "
                    + "\(HumanFormat.count(bundle.files)) files, \(HumanFormat.bytes(bundle.bytesOnDisk)) (\(state))")
        }
    }
}
