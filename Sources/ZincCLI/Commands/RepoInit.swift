import ArgumentParser
import ZincClient

struct RepoInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repo_init",
        abstract: "Create a client repo: a local folder of bundles kept in sync with remote catalogs.",
        discussion: """
            Creates DIR (when missing) with repo.json, catalogs/, manifests/, objects/, bundles/ \
            and tmp/. Track bundles with 'track', then fetch them with 'sync'.
            """,
        aliases: ["repo-init"]
    )

    @OptionGroup var repo: RepoOption

    func run() throws {
        let created = try Repo.initialize(at: repo.folderToCreate())
        print("Created repo \(created.root)")
    }
}
