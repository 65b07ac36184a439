/// Removes distribution `distro` of `bundle` together with its previous-version pointer
/// `_distro`, which would otherwise keep a version from being deleted.
///
/// ``plan()`` says what the current index makes that; ``run()`` plans again inside the
/// index update that removes them, so it never removes a pointer another writer moved
/// meanwhile without seeing where it points.
public struct DistroDeletion: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let distro: String
    private let force: Bool

    /// `force` deletes a distribution whose rollout is live, which ends it.
    public init(_ catalog: Catalog, bundle: String, distro: String, force: Bool = false) {
        self.catalog = catalog
        self.bundle = bundle
        self.distro = distro
        self.force = force
    }

    public func plan() throws -> DistroDeletionPlan {
        try validate()
        var index = try catalog.index()
        return try remove(from: &index)
    }

    /// Returns what it removed: the version the distribution pointed at among it.
    @discardableResult
    public func run() throws -> DistroDeletionPlan {
        try validate()
        // The archives of a version no pointer names any more start their grace period.
        return try catalog.movePointers { index in try remove(from: &index) }
    }

    private func validate() throws {
        try Names.validateDistroName(distro)
        if !force { try catalog.checkNoLiveRollout(bundle: bundle, distro: distro) }
    }

    private func remove(from index: inout CatalogIndex) throws -> DistroDeletionPlan {
        var entry = try index.bundle(bundle)
        guard let version = entry.distributions.removeValue(forKey: distro) else {
            throw ZincError.distroNotFound(
                bundle: bundle, distro: distro, suggestion: Spelling.nearest(to: distro, among: entry.distroNames))
        }
        let previousVersion = entry.distributions.removeValue(forKey: "_" + distro)
        index.bundles[bundle] = entry
        return DistroDeletionPlan(bundle: bundle, distro: distro, version: version, previousVersion: previousVersion)
    }
}
