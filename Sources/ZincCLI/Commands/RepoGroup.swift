import ArgumentParser

/// `zinc repo …`: commands on a client repo as a whole.
struct RepoGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repo",
        abstract: "Check, repair or seed a client repo.",
        subcommands: [RepoVerify.self, RepoSeed.self]
    )
}
