import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who makes a change, why, and the key that signs it.
struct RolloutChangeOptions: ParsableArguments {
    @OptionGroup var signing: SigningOption

    @Option(help: ArgumentHelp("Who makes the change, for the rollout's log.", discussion: "Defaults to $USER."))
    var actor: String?

    @Option(help: "Why, for the rollout's log (at most 1,000 bytes).")
    var note: String?

    /// `--actor`, else the user's name.
    var who: String { Self.user(actor) }

    /// `actor` when given, else the user's name from the environment, else the user id.
    static func user(_ actor: String?) -> String {
        let environment = ProcessInfo.processInfo.environment
        return actor ?? [environment["USER"], environment["LOGNAME"]].compactMap { $0 }.first { !$0.isEmpty } ?? "uid \(getuid())"
    }

    /// Makes `change` on `target`'s rollout and prints the rollout as it now is.
    func run(_ change: RolloutUpdate.Change, on target: RolloutTarget, json: Bool = false) throws {
        let catalog = try target.catalog.reference.signed(by: signing).open()
        let rollout = try RolloutUpdate(catalog, bundle: target.bundle, distro: target.distro, change: change, actor: who, note: note).run()
        let report = RolloutReport(rollout, pointer: try catalog.index().bundles[target.bundle]?.distributions[target.distro])
        if json { return try printJSON(report) }
        print(report.text)
    }
}
