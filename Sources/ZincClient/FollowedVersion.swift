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

    public func encode(to encoder: any Encoder) throws {
        try choice.encode(to: encoder)
    }
}

extension FollowedVersion? {
    /// "; follows version 5: …" after a bundle's human line, or nothing.
    var lineSuffix: String { map { "; \($0.line)" } ?? "" }
}
