import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A rollout as `zinc rollout` commands print it, in words or as JSON:
/// `{"bundle", "distro", "state", "control", "candidate", "pointer", "applies",
/// "percentage", "steps": [{"time", "percentage"}], "paused", "conditions": {"app_version",
/// "platforms", "only"}, "serial", "signed", "expires", "key", "action", "actor", "note"}`.
struct RolloutReport: Encodable {
    struct Step: Encodable {
        let time: Int64
        let percentage: String
    }

    struct Conditions: Encodable {
        let appVersion: String?
        let platforms: [String]
        let only: [String]
    }

    let bundle: String
    let distro: String
    let state: String
    let control: Int
    let candidate: Int
    /// The version the index's pointer names now.
    let pointer: Int?
    let applies: Bool
    /// The share of installs in the rollout now.
    let percentage: String
    let steps: [Step]
    let paused: Int64?
    let conditions: Conditions
    let serial: Int64
    let signed: Int64
    let expires: Int64
    let key: String?
    let action: String
    let actor: String
    let note: String?

    init(_ rollout: Rollout, pointer: Int?, now: Int64 = Int64(Date().timeIntervalSince1970)) {
        bundle = rollout.bundle
        distro = rollout.distro
        state = rollout.state.rawValue
        control = rollout.control
        candidate = rollout.candidate
        self.pointer = pointer
        applies = rollout.applies(whilePointerIs: pointer)
        percentage = rollout.share(at: now).description
        steps = rollout.steps.map { Step(time: $0.time, percentage: $0.percentage.description) }
        paused = rollout.pausedAt
        conditions = Conditions(
            appVersion: rollout.conditions.appVersion?.description, platforms: rollout.conditions.platforms,
            only: rollout.conditions.only.map(\.description))
        serial = rollout.serial
        signed = rollout.signedAt
        expires = rollout.expiresAt
        key = rollout.keyID
        action = rollout.action.rawValue
        actor = rollout.actor
        note = rollout.note
        toCome = rollout.stepsToCome(at: now)
    }

    /// The steps still to come, for `text`.
    private let toCome: [Rollout.Step]

    private enum CodingKeys: CodingKey {
        case bundle, distro, state, control, candidate, pointer, applies, percentage, steps, paused, conditions, serial, signed,
            expires, key, action, actor, note
    }

    static func time(_ seconds: Int64) -> String { UTCMoment.describe(seconds) }

    /// Several lines in words.
    var text: String {
        var lines = ["Rollout of '\(bundle)' distribution '\(distro)': \(state), version \(candidate) over version \(control)"]
        if !applies {
            lines.append(
                state == "complete"
                    ? "  complete: '\(distro)' points at version \(pointer.map(String.init) ?? "none")"
                    : "  no longer applies: '\(distro)' points at version \(pointer.map(String.init) ?? "none"), not the control")
        } else if state == "halted" {
            lines.append("  every install follows the control, version \(control)")
        } else {
            var share = "  \(percentage)% of installs take the candidate"
            if let paused { share += " (paused at \(Self.time(paused)))" }
            if let next = toCome.first {
                share += "; \(next.percentage)% from \(Self.time(next.time))\(paused == nil ? "" : " once resumed")"
            }
            lines.append(share)
        }
        var conditionWords = [String]()
        if let appVersion = conditions.appVersion { conditionWords.append("app version \(appVersion)") }
        if !conditions.platforms.isEmpty { conditionWords.append("platform " + conditions.platforms.joined(separator: " or ")) }
        conditionWords += conditions.only
        if !conditionWords.isEmpty { lines.append("  only installs with " + conditionWords.joined(separator: ", ")) }
        lines.append(
            "  serial \(serial)\(key.map { ", signed by key \($0)" } ?? ", unsigned"), expires \(Self.time(expires))")
        lines.append("  last change: \(action) by \(actor) at \(Self.time(signed))\(note.map { ": \($0)" } ?? "")")
        return lines.joined(separator: "\n")
    }
}
