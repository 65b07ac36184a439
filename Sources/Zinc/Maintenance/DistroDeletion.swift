extension Catalog {
    /// Removes distribution `distro` of `bundle` together with its previous-version
    /// pointer `_distro`, which would otherwise keep a version from being deleted.
    /// Returns the version the distribution pointed at.
    @discardableResult
    public func deleteDistro(bundle: String, distro: String) throws -> Int {
        try Names.validateDistroName(distro)
        return try updateIndex { index in
            var entry = try index.bundle(bundle)
            guard let version = entry.distributions.removeValue(forKey: distro) else {
                throw ZincError.distroNotFound(
                    bundle: bundle, distro: distro, suggestion: Spelling.nearest(to: distro, among: entry.distroNames))
            }
            entry.distributions.removeValue(forKey: "_" + distro)
            index.bundles[bundle] = entry
            return version
        }
    }
}
