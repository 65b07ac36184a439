import ArgumentParser
import Zinc

struct RolloutResume: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "Resume a paused or halted rollout; steps still to come move on by the time spent paused.")

    @OptionGroup var target: RolloutTarget

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func run() throws {
        try change.run(.resume, on: target, json: json)
    }
}
