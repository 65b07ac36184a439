import ArgumentParser
import Zinc

struct RolloutLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Print every change of a distribution's rollouts: what, when, by whom and why.")

    @OptionGroup var target: RolloutTarget

    @Flag(help: "Print one JSON list instead, oldest first, of the documents 'zinc rollout status --json' prints.")
    var json = false

    func run() throws {
        let catalog = try target.catalog.reference.open()
        let pointer = try catalog.index().bundle(target.bundle).distributions[target.distro]
        let entries = try RolloutUpdate.log(in: catalog, bundle: target.bundle, distro: target.distro)
        if json { return try printJSON(entries.map { RolloutReport($0, pointer: pointer) }) }
        guard !entries.isEmpty else { return print("'\(target.bundle)' distribution '\(target.distro)' has no rollout log") }
        var table = TextTable([.left, .left, .left, .left, .left, .right, .left])
        table.add("when", "action", "by", "state", "version", "share", "note")
        for entry in entries {
            table.add(
                RolloutReport.time(entry.signedAt), entry.action.rawValue, entry.actor, entry.state.rawValue,
                "\(entry.candidate) over \(entry.control)", entry.state == .halted ? "-" : "\(entry.percentage(at: entry.signedAt))%",
                entry.note ?? "")
        }
        print(table.lines().joined(separator: "\n"))
    }
}
