import ArgumentParser
import Zinc

/// `--create` of `update_distro` and `promote`: a distribution the bundle does not have
/// yet, but within a typo of one it has, is refused without it. A mistyped release
/// promotion (`mastr`) would otherwise go live as a new distribution no client follows.
/// The Python tool's `distro:update` creates as before.
struct CreateOption: ParsableArguments {
    @Flag(help: "Create the distribution even when its name is a typo away from an existing one.")
    var create = false

    /// Refuses `distro` of `bundle` when it is new and near an existing name, unless `--create`.
    func check(_ distro: String, of bundle: String, in catalog: Catalog) throws {
        guard !create, let entry = try catalog.index().bundles[bundle], entry.distributions[distro] == nil,
            let nearest = Spelling.nearest(to: distro, among: entry.distroNames)
        else { return }
        throw CLIError.newDistroNearExisting(bundle: bundle, distro: distro, nearest: nearest)
    }
}
