import ArgumentParser
import ZincClient

struct RepoInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repo_init",
        abstract: "Create a client repo: a local folder of bundles kept in sync with remote catalogs.",
        discussion: """
            Creates DIR (when missing) with repo.json, catalogs/, manifests/, objects/, bundles/ \
            and tmp/. DIR is given as an argument or with --repo. Track bundles with 'track', \
            then fetch them with 'sync'.
            """,
        aliases: ["repo-init"]
    )

    @OptionGroup var repo: RepoOption

    @Argument(help: ArgumentHelp("The folder to create the repo in (as --repo DIR).", valueName: "DIR"))
    var folder: String?

    func validate() throws {
        if folder != nil, repo.repo != nil { throw ValidationError("Give the folder once: DIR or --repo DIR.") }
    }

    func run() throws {
        let created = try Repo.initialize(at: folder ?? repo.folderToCreate())
        print("Created repo \(created.root)")
    }
}
