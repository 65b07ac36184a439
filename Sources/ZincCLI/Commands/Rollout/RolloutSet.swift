import ArgumentParser
import Zinc

struct RolloutSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a live rollout's share of installs, or its candidate.",
        discussion: """
            --percent replaces the steps still to come with this share from now on; the salt \
            stays, so raising it moves no install out. --version replaces the candidate with \
            a fix and keeps the salt and the share: the same installs move to the fix.
            """
    )

    @OptionGroup var target: RolloutTarget

    @Option(help: "The share of installs that take the candidate from now on.")
    var percent: String?

    @Option(help: "A new candidate: a version number, 'latest' or @DISTRO.")
    var version: String?

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func validate() throws {
        guard (percent == nil) != (version == nil) else { throw ValidationError("give --percent or --version") }
    }

    func run() throws {
        if let percent {
            return try change.run(.setPercentage(try RolloutStart.percentage(percent, option: "--percent")), on: target, json: json)
        }
        let spec = try VersionSpec(version!, of: target.bundle, in: try target.catalog.reference.open())
        try change.run(.setCandidate(spec), on: target, json: json)
    }
}
