/// What `update_distro` did.
public enum DistroChange: Equatable, Sendable {
    case created(version: Int)
    case updated(version: Int, previous: Int)
    /// The distro already pointed at that version; nothing changed.
    case unchanged(version: Int)
}

extension Catalog {
    /// Points distro `distro` of `bundle` at the version `spec` names. The replaced
    /// version is kept under `_<distro>` (unless `savePrevious` is false) so a bad
    /// promotion can be rolled back with `@_<distro>`.
    public func updateDistro(
        bundle: String, distro: String, to spec: VersionSpec,
        savePrevious: Bool = true
    ) throws -> DistroChange {
        try Names.validateBundleName(bundle)
        try Names.validateDistroName(distro)
        return try updateIndex { index in
            var entry = try index.bundle(bundle)
            let version = try spec.resolve(in: entry, name: bundle)
            let previous = entry.distributions[distro]
            if previous == version { return .unchanged(version: version) }
            entry.distributions[distro] = version
            if let previous, savePrevious { entry.distributions["_" + distro] = previous }
            index.bundles[bundle] = entry
            return previous.map { .updated(version: version, previous: $0) } ?? .created(version: version)
        }
    }
}
