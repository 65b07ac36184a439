import ArgumentParser
import Zinc
import ZincClient

struct RepoInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repo_init",
        abstract: "Create a client repo: a local folder of bundles kept in sync with remote catalogs.",
        discussion: """
            Creates DIR (when missing) with repo.json, catalogs/, manifests/, objects/, bundles/ \
            and tmp/. DIR is given as an argument or with --repo. Track bundles with 'track', \
            then fetch them with 'sync'. The repo is an install to staged rollouts: a random id \
            (or --install-id) and attributes (--attribute), kept in repo.json, decide whether it \
            takes a rollout's candidate.
            """,
        aliases: ["repo-init"]
    )

    @OptionGroup var repo: RepoOption

    @Argument(help: ArgumentHelp("The folder to create the repo in (as --repo DIR).", valueName: "DIR"))
    var folder: String?

    @Option(
        help: ArgumentHelp(
            "The install's id for staged rollouts, 1 to 128 bytes (default: 16 random bytes in hex).", valueName: "ID"))
    var installID: String?

    @OptionGroup var attributes: AttributeOption

    func validate() throws {
        if folder != nil, repo.repo != nil { throw ValidationError("Give the folder once: DIR or --repo DIR.") }
    }

    func run() throws {
        let install = try InstallIdentity(
            id: installID ?? InstallIdentity.randomID(), attributes: attributes.parsed())
        let created = try Repo.initialize(at: folder ?? repo.folderToCreate(), install: install)
        print("Created repo \(created.root)")
    }
}
