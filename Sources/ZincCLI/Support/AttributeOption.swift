import ArgumentParser
import Zinc

/// `--attribute KEY=VALUE`, repeatable: what an install says of itself to a rollout's
/// conditions, at `repo_init`, `sync` and `rollout status`.
struct AttributeOption: ParsableArguments {
    @Option(
        name: .customLong("attribute"),
        help: ArgumentHelp(
            "An attribute of the install that rollout conditions test, such as platform=ios or app-version=2.4 (repeatable).",
            valueName: "KEY=VALUE"))
    var values: [String] = []

    /// Each one checked: `KEY=VALUE` with a valid key and value.
    func parsed() throws -> [Attribute] { try values.map { try Attribute(parsing: $0) } }
}
