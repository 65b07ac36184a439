import ArgumentParser
import Zinc

struct RolloutHalt: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "halt", abstract: "Send every install of a rollout back to its control.")

    @OptionGroup var target: RolloutTarget

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func run() throws {
        try change.run(.halt, on: target, json: json)
    }
}
