import ArgumentParser
import ZincClient

struct Untrack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untrack",
        abstract: "Stop tracking a bundle and remove its files from a client repo.",
        discussion: "Objects other tracked bundles use stay."
    )

    @OptionGroup var repo: RepoOption

    @Option(
        name: [.customLong("catalog"), .customLong("catalog-id")],
        help: ArgumentHelp(
            "The catalog: its id (as 'status' shows it), or the URL or path it was tracked at (in any spelling).", valueName: "CAT"))
    var catalog: String

    @Option(help: "The bundle name.")
    var bundle: String

    func run() throws {
        try repo.open().untrack(catalog: catalog, bundle: bundle)
        print("No longer tracking '\(bundle)' of \(catalog)")
    }
}
