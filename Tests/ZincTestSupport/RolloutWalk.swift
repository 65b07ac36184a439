/// A staged release through every `zinc rollout` change, for the tests that read the
/// catalog after each one as a client that knows nothing of rollouts (JavaZinc, the
/// iOS client, the Python tool): version 1 is the control, version 2 the first
/// candidate, version 3 the fix that replaces it.
public enum RolloutWalk {
    public static let control = 1
    public static let fix = 3

    /// The arguments after `zinc rollout` of each change (the catalog, bundle and
    /// distribution go after them), and the version `distributions[D]` names once it is
    /// made: the control until `complete`, then the fix.
    public static let steps: [(arguments: [String], pointer: Int)] = [
        (["start", "--version", "2", "--percent", "10"], control),
        (["set", "--percent", "50"], control),
        (["set", "--version", "3"], control),
        (["pause"], control),
        (["resume"], control),
        (["halt"], control),
        (["resume"], control),
        (["complete"], fix),
    ]
}
