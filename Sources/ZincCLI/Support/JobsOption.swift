import ArgumentParser

/// `--jobs N`, for the commands that spread their work over threads (by default one
/// per core the process may use): a build machine shared with other jobs can hold
/// them to N.
struct JobsOption: ParsableArguments {
    @Option(
        name: [.customShort("j"), .long],
        help: ArgumentHelp("Use at most this many threads (default: one per available core).", valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }
}
