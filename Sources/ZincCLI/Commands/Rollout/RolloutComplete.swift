import ArgumentParser
import Zinc

struct RolloutComplete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete", abstract: "Point the distribution at the candidate (keeping the control as _DISTRO) and end the rollout.")

    @OptionGroup var target: RolloutTarget

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func run() throws {
        try change.run(.complete, on: target, json: json)
    }
}
