import ArgumentParser
import Zinc

struct RolloutPause: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Stop a rollout's steps where they are; nobody moves until it resumes.")

    @OptionGroup var target: RolloutTarget

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func run() throws {
        try change.run(.pause, on: target, json: json)
    }
}
