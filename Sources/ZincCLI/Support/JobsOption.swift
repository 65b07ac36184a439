import ArgumentParser

/// `--jobs N`, for the commands that spread their work over threads: a build machine
/// shared with other jobs, or a container allowed fewer cores than it can see, can
/// hold them to N.
struct JobsOption: ParsableArguments {
    @Option(name: [.customShort("j"), .long],
            help: ArgumentHelp("Use at most this many threads (default: one per core).", valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }
}
