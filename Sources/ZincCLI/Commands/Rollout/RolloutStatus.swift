import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct RolloutStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show a distribution's rollout: its state, share, candidate and last change.",
        discussion: """
            With --install-id or --installs it also says which version each install \
            follows now, and why, by the selection every client makes: "why did install X \
            not get the update?"
            """)

    @OptionGroup var target: RolloutTarget

    @Option(help: ArgumentHelp("Say which version this install follows, and why.", valueName: "id"))
    var installID: String?

    /// Of --install-id's install.
    @OptionGroup var attribute: AttributeOption

    @Option(
        help: ArgumentHelp(
            "Say it for every install listed, a line each: ID [KEY=VALUE ...] ('-': standard input).", valueName: "file"))
    var installs: String?

    @Flag(
        help: """
            Print one JSON document instead: {"bundle", "distro", "state", "control", "candidate", "pointer", \
            "applies", "percentage", "steps", "paused", "conditions", "serial", "signed", "expires", "key", \
            "action", "actor", "note"}, or null when there is no rollout; with installs, also "installs": \
            [{"id", "attributes", "version", "code", "reason", "slot"}] (a client's "follows" keys).
            """)
    var json = false

    func validate() throws {
        if installID != nil, installs != nil { throw ValidationError("give --install-id or --installs, not both") }
        if !attribute.values.isEmpty, installID == nil { throw ValidationError("--attribute goes with --install-id") }
    }

    func run() throws {
        let catalog = try target.catalog.reference.open()
        let pointer = try catalog.index().bundle(target.bundle).distributions[target.distro]
        let rollout = try RolloutUpdate.current(in: catalog, bundle: target.bundle, distro: target.distro)
        let now = Int64(Date().timeIntervalSince1970)
        guard let each = try eachInstall() else {
            guard let rollout else {
                if json { return print("null") }
                return print(noRollout)
            }
            let report = RolloutReport(rollout, pointer: pointer, now: now)
            if json { return try printJSON(report) }
            return print(report.text)
        }
        // An install follows the pointer or the rollout's control, which is the pointer
        // while the rollout applies: with no pointer there is nothing to follow.
        guard let pointer else { throw ZincError.distroNotFound(bundle: target.bundle, distro: target.distro) }
        // The client's own choice, made one install at a time as the list is read.
        func follow(_ visit: (InstallChoiceReport) throws -> Void) throws {
            try each { install in
                try visit(InstallChoiceReport(install, RolloutSelection.choose(for: install, rollout: rollout, pointer: pointer, at: now)))
            }
        }
        if json {
            if let rollout {
                return try printJSON(RolloutReport(rollout, pointer: pointer, now: now), streaming: "installs", items: follow)
            }
            return try printJSON(
                NoRollout(bundle: target.bundle, distro: target.distro, pointer: pointer), streaming: "installs", items: follow)
        }
        print(rollout.map { RolloutReport($0, pointer: pointer, now: now).text } ?? noRollout)
        try follow { print($0.text) }
    }

    private var noRollout: String { "'\(target.bundle)' distribution '\(target.distro)' has no rollout" }

    /// The installs asked about, handed one at a time to the function given; nil when
    /// none was.
    private func eachInstall() throws -> (((InstallIdentity) throws -> Void) throws -> Void)? {
        if let installID {
            let install = try InstallIdentity(id: installID, attributes: attribute.parsed())
            return { try $0(install) }
        }
        guard let installs else { return nil }
        return try InstallList(path: installs).forEach
    }

    /// `--json` with installs and no rollout: what every install follows is the pointer.
    private struct NoRollout: Encodable {
        let bundle: String
        let distro: String
        let pointer: Int
    }
}
