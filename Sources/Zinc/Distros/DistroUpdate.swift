/// Points distro `distro` of `bundle` at the version `spec` names (`update_distro`). The
/// replaced version is kept under `_<distro>` (unless `savePrevious` is false) so a bad
/// promotion can be rolled back with `@_<distro>`.
///
/// ``plan()`` says what the current index makes that change; ``run()`` resolves `spec`
/// again inside the index update that makes it, so it never moves a distribution from a
/// version another writer has since replaced without keeping that one as `_<distro>`.
public struct DistroUpdate: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let distro: String
    private let spec: VersionSpec
    private let savePrevious: Bool
    private let force: Bool

    /// `force` moves the pointer while a rollout of the distribution is live, which ends
    /// it (see ``Catalog/checkNoLiveRollout(bundle:distro:)``).
    public init(
        _ catalog: Catalog, bundle: String, distro: String, to spec: VersionSpec, savePrevious: Bool = true, force: Bool = false
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.distro = distro
        self.spec = spec
        self.savePrevious = savePrevious
        self.force = force
    }

    /// What a run would change now; changes nothing.
    public func plan() throws -> DistroChange {
        try validateNames()
        var index = try catalog.index()
        return try update(&index)
    }

    /// Returns what it changed. The version's archives are written first when it lacks
    /// them, and the archives of a version no pointer names any more are recorded as out
    /// of use (see `movePointers`).
    @discardableResult
    public func run() throws -> DistroChange {
        try validateNames()
        return try catalog.movePointers { index in try update(&index) }
    }

    private func validateNames() throws {
        try Names.validateBundleName(bundle)
        try Names.validateDistroName(distro)
        if !force { try catalog.checkNoLiveRollout(bundle: bundle, distro: distro) }
    }

    private func update(_ index: inout CatalogIndex) throws -> DistroChange {
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
