import Zinc

/// The version a tracked bundle follows and why, when its distribution has a rollout
/// file: a sync's and a plan's `follows`, and `status`'s (from the files the last sync
/// kept).
public struct FollowedVersion: Equatable, Sendable, Encodable {
    public let choice: RolloutChoice

    public var version: Int { choice.version }

    init(_ choice: RolloutChoice) {
        self.choice = choice
    }

    /// Shown only where a rollout file had a say: with none, the pointer is all there is.
    init?(ifRollout choice: RolloutChoice) {
        guard choice.reason != .noRollout else { return nil }
        self.init(choice)
    }

    /// "follows version 5: the rollout's candidate: …", for the human forms.
    package var line: String { "follows version \(version): \(choice.explanation)" }

    private enum CodingKeys: String, CodingKey {
        case version, code, reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(choice.reason.code, forKey: .code)
        try container.encode(choice.explanation, forKey: .reason)
    }
}
