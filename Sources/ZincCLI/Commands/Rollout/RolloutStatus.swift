import ArgumentParser
import Zinc

struct RolloutStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show a distribution's rollout: its state, share, candidate and last change.")

    @OptionGroup var target: RolloutTarget

    @Flag(
        help: """
            Print one JSON document instead: {"bundle", "distro", "state", "control", "candidate", "pointer", \
            "applies", "percentage", "steps", "paused", "conditions", "serial", "signed", "expires", "key", \
            "action", "actor", "note"}, or null when there is no rollout.
            """)
    var json = false

    func run() throws {
        let catalog = try target.catalog.reference.open()
        let pointer = try catalog.index().bundle(target.bundle).distributions[target.distro]
        guard let rollout = try RolloutUpdate.current(in: catalog, bundle: target.bundle, distro: target.distro) else {
            if json { return print("null") }
            return print("'\(target.bundle)' distribution '\(target.distro)' has no rollout")
        }
        let report = RolloutReport(rollout, pointer: pointer)
        if json { return try printJSON(report) }
        print(report.text)
    }
}
