import Zinc

/// Which version one install follows and why, as `zinc rollout status --install-id` or
/// `--installs` prints it: a line in words, or `{"id", "attributes", "version", "reason",
/// "slot"?, "explanation"}` in `--json`'s `installs`.
struct InstallChoiceReport: Encodable {
    let id: String
    /// `KEY=VALUE`, sorted by key (a list, not an object, so that its keys are not
    /// mistaken for the document's).
    let attributes: [String]
    let version: Int
    /// `RolloutChoice.Reason.code`: drawn, not_drawn, condition_unmet, halted, ...
    let reason: String
    /// The install's slot of 10,000 where the reason rests on it.
    let slot: Int?
    let explanation: String

    init(_ install: InstallIdentity, _ choice: RolloutChoice) {
        id = install.id
        attributes = install.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        version = choice.version
        reason = choice.reason.code
        slot = choice.slot
        explanation = choice.explanation
    }

    /// One line: `install ID follows version V, EXPLANATION`.
    var text: String { "install \(id) follows version \(version), \(explanation)" }
}
