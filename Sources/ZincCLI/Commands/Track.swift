import ArgumentParser
import Zinc
import ZincClient

struct Track: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Keep a bundle of a remote catalog in sync in a client repo.",
        discussion: """
            Fetches the catalog's index once to learn its id and check the bundle and distro. \
            Tracking another URL of the same catalog id adds it as a further source, tried \
            in order when an earlier one fails; another spelling of a URL it has (a trailing \
            '/', the scheme's or host's case, the default port) adds none. Tracking a bundle again changes its distro \
            or flavor. The files arrive with the next 'sync'.
            """
    )

    @OptionGroup var repo: RepoOption

    @Option(help: ArgumentHelp("The catalog root: http(s)://..., s3://BUCKET/PREFIX, file://... or a local path.", valueName: "URL"))
    var catalog: String

    @Option(help: "The bundle name.")
    var bundle: String

    @Option(help: "The distribution to follow.")
    var distro = "master"

    @Option(help: "Keep only the files of this flavor.")
    var flavor: String?

    @Option(
        name: .customLong("trusted-key"),
        help: ArgumentHelp(
            "Sync only an index and manifests signed by this public key (repeatable: any of them, for key rotation).",
            discussion: "Replaces the catalog's trusted keys; without it, the catalog keeps those it has.", valueName: "file"))
    var trustedKey: [String] = []

    @OptionGroup var files: WritableOption

    func run() throws {
        let keys = try trustedKey.map(PublicKey.load)
        let tracked = try repo.open().track(
            url: catalog, bundle: bundle, distro: distro, flavor: flavor, trustedKeys: keys, writableFiles: files.writable,
            options: .command)
        print(
            "Tracking '\(tracked.bundle)' of \(tracked.catalog) at distribution '\(tracked.distro)'"
                + (tracked.flavor.map { ", flavor '\($0)'" } ?? ""))
    }
}
