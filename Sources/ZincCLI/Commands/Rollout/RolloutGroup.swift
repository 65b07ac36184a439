import ArgumentParser

/// `zinc rollout …`: staged rollouts of a distribution (docs/ROLLOUTS.md).
struct RolloutGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Give a new version to a growing share of a distribution's installs.",
        discussion: """
            The distribution's pointer stays on its version (the control), which every other \
            install and every older client follows, while the installs drawn into the rollout \
            follow the candidate. See docs/ROLLOUTS.md.
            """,
        subcommands: [
            RolloutStart.self, RolloutSet.self, RolloutPause.self, RolloutResume.self, RolloutHalt.self,
            RolloutComplete.self, RolloutStatus.self, RolloutLog.self,
        ]
    )
}
