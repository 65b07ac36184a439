import Zinc

/// Which version one install follows and why, as `zinc rollout status --install-id` or
/// `--installs` prints it: a line in words, or in `--json`'s `installs` the install's
/// `{"id", "attributes"}` beside the choice's own keys (`RolloutChoice`'s encoding, the
/// one a client's `follows` has).
struct InstallChoiceReport: Encodable {
    let id: String
    /// `KEY=VALUE`, sorted by key (a list, not an object, so that its keys are not
    /// mistaken for the document's).
    let attributes: [String]
    let choice: RolloutChoice

    init(_ install: InstallIdentity, _ choice: RolloutChoice) {
        id = install.id
        attributes = install.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        self.choice = choice
    }

    /// One line: `install ID follows version V, EXPLANATION`.
    var text: String { "install \(id) follows version \(choice.version), \(choice.explanation)" }

    private enum CodingKeys: String, CodingKey {
        case id, attributes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(attributes, forKey: .attributes)
        try choice.encode(to: encoder)
    }
}
