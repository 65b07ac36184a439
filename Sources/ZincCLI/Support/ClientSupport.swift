import ArgumentParser
import Zinc
import ZincClient

/// `--repo DIR`, shared by the client commands.
struct RepoOption: ParsableArguments {
    @Option(help: ArgumentHelp("The client repo folder.", valueName: "DIR"))
    var repo: String

    func open() throws -> Repo { try Repo(at: repo) }
}
