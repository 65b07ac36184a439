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

    public init(_ catalog: Catalog, bundle: String, distro: String) {
        self.catalog = catalog
        self.bundle = bundle
        self.distro = distro
    }

    public func plan() throws -> DistroDeletionPlan {
        try Names.validateDistroName(distro)
        var index = try catalog.index()
        return try remove(from: &index)
    }

    /// Returns what it removed: the version the distribution pointed at among it.
    @discardableResult
    public func run() throws -> DistroDeletionPlan {
        try Names.validateDistroName(distro)
        // The archives of a version no pointer names any more start their grace period.
        return try catalog.movePointers { index in try remove(from: &index) }
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
