/// Which version an install follows while a rollout may apply (FORMAT.md, "Rollouts"):
/// the one rule every client, the benchmark and `zinc rollout status` share, so that all
/// of them draw the same installs.
public enum RolloutSelection {
    /// Where an install falls among 10,000 for `salt`: the first 8 bytes of
    /// SHA-256(id ‖ 0x00 ‖ salt), big-endian, modulo 10,000. It is in the rollout when
    /// that is below the percentage in basis points, so raising the percentage keeps
    /// everyone already in, and a new salt draws anew.
    public static func slot(of installID: String, salt: [UInt8]) -> Int {
        let digest = SHA256.digest(Array(installID.utf8) + [0] + salt).bytes
        let head = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(head % 10_000)
    }

    /// The version an install follows, and why, given the rollout (nil when there is none
    /// it can trust), the version the index's pointer names, and the time.
    public static func choose(
        for install: InstallIdentity, rollout: Rollout?, pointer: Int, at now: Int64
    ) -> RolloutChoice {
        guard let rollout else { return RolloutChoice(version: pointer, reason: .noRollout) }
        guard rollout.applies(whilePointerIs: pointer) else {
            return RolloutChoice(
                version: pointer, reason: rollout.state == .complete ? .completed : .pointerMoved(control: rollout.control))
        }
        guard rollout.state != .halted else { return RolloutChoice(version: rollout.control, reason: .halted) }
        let percentage = rollout.percentage(at: now)
        let slot = slot(of: install.id, salt: rollout.salt)
        guard slot < percentage.basisPoints else {
            return RolloutChoice(version: rollout.control, reason: .notDrawn(slot: slot, percentage: percentage))
        }
        if let unmet = rollout.conditions.unmet(by: install.attributes) {
            return RolloutChoice(version: rollout.control, reason: .conditionUnmet(unmet))
        }
        return RolloutChoice(version: rollout.candidate, reason: .drawn(slot: slot, percentage: percentage))
    }
}

/// A version an install follows, and the reason `status` gives for it.
public struct RolloutChoice: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// No rollout file, or none the client could trust.
        case noRollout
        /// The rollout completed: the pointer names its candidate.
        case completed
        /// The pointer no longer names the rollout's control: the rollout is over.
        case pointerMoved(control: Int)
        case halted
        /// Outside the rollout: its slot is at or above the percentage in basis points.
        case notDrawn(slot: Int, percentage: Percentage)
        case conditionUnmet(String)
        /// In the rollout: its slot is below the percentage in basis points.
        case drawn(slot: Int, percentage: Percentage)
        /// A rollout file the client could not trust (why): the install stays on the
        /// version it holds, a new one takes the pointer's.
        case untrusted(String)

        /// The reason in one word, for scripts (`follows.code` in a client's JSON).
        public var code: String {
            switch self {
            case .noRollout: "no_rollout"
            case .completed: "completed"
            case .pointerMoved: "pointer_moved"
            case .halted: "halted"
            case .notDrawn: "not_drawn"
            case .conditionUnmet: "condition_unmet"
            case .drawn: "drawn"
            case .untrusted: "untrusted"
            }
        }
    }

    public var version: Int
    public var reason: Reason

    public init(version: Int, reason: Reason) {
        self.version = version
        self.reason = reason
    }

    /// The install's slot of 10,000, where the reason rests on it (drawn or not drawn).
    public var slot: Int? {
        switch reason {
        case .notDrawn(let slot, _), .drawn(let slot, _): slot
        default: nil
        }
    }

    /// The reason in words, as `status` prints it.
    public var explanation: String {
        switch reason {
        case .noRollout: "no rollout: the distribution's pointer"
        case .completed: "the rollout completed: the distribution's pointer"
        case .pointerMoved(let control):
            "the distribution's pointer: it no longer names the rollout's control (version \(control))"
        case .halted: "the rollout is halted: its control"
        case .notDrawn(let slot, let percentage):
            "the rollout's control: the install's slot \(slot) of 10000 is not below \(percentage)%"
        case .conditionUnmet(let condition): "the rollout's control: \(condition)"
        case .drawn(let slot, let percentage):
            "the rollout's candidate: the install's slot \(slot) of 10000 is below \(percentage)%"
        case .untrusted(let why): "the version it holds: the rollout file is not trusted (\(why))"
        }
    }
}

/// `{"version", "code", "reason" (in words), "slot"?}`: one spelling for every JSON that
/// says which version an install follows (a client's `follows`, `rollout status`'s
/// installs), so a script reads both alike.
extension RolloutChoice: Encodable {
    private enum CodingKeys: String, CodingKey {
        case version, code, reason, slot
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(reason.code, forKey: .code)
        try container.encode(explanation, forKey: .reason)
        try container.encodeIfPresent(slot, forKey: .slot)
    }
}
