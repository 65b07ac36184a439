import ArgumentParser
import Zinc
import ZincClient

/// `reportingErrors` for the client commands, whose failures may also be `ClientError`s
/// (what a server or the network did wrong).
func reportingClientErrors<T>(_ body: () throws -> T) throws -> T {
    try reportingErrors {
        do {
            return try body()
        } catch let error as ClientError {
            throw ValidationFailure(message: error.description)
        }
    }
}

/// `--repo DIR`, shared by the client commands.
struct RepoOption: ParsableArguments {
    @Option(help: ArgumentHelp("The client repo folder.", valueName: "DIR"))
    var repo: String

    func open() throws -> Repo { try Repo(at: repo) }
}
