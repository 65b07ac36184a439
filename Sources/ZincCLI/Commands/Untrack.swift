import ArgumentParser
import ZincClient

struct Untrack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untrack",
        abstract: "Stop tracking a bundle and remove its files from a client repo.",
        discussion: "Objects other tracked bundles use stay."
    )

    @OptionGroup var repo: RepoOption

    @Option(help: ArgumentHelp("The catalog id (as 'status' shows it).", valueName: "ID"))
    var catalogId: String

    @Option(help: "The bundle name.")
    var bundle: String

    func run() throws {
        try repo.open().untrack(catalog: catalogId, bundle: bundle)
        print("No longer tracking '\(bundle)' of \(catalogId)")
    }
}
