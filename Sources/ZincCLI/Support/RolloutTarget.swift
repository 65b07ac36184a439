import ArgumentParser
import Zinc

/// The options every `zinc rollout` command shares: which catalog, bundle and
/// distribution (`RolloutChangeOptions` adds, for the commands that change it, the key,
/// who and why).
struct RolloutTarget: ParsableArguments {
    @OptionGroup var catalog: CatalogOption

    @Option(help: "The bundle.")
    var bundle: String

    @Option(help: "The distribution whose installs the rollout divides (master, ...).")
    var distro: String
}
