/// One bundle as `zinc list` shows it: its versions, each with the distributions that
/// point at it.
public struct BundleListing: Equatable, Sendable {
    /// One version of the bundle and the distributions pointing at it.
    public struct Version: Equatable, Sendable {
        public let number: Int
        /// The distributions (and `_name` previous-distro pointers) at this version, sorted.
        public let distributions: [String]

        public init(number: Int, distributions: [String]) {
            self.number = number
            self.distributions = distributions
        }
    }

    public let name: String
    public let versions: [Version]

    public init(name: String, versions: [Version]) {
        self.name = name
        self.versions = versions
    }
}

extension Catalog {
    /// Every bundle, sorted by name, with all its versions. With `distro`, only the
    /// bundles that have that distribution, each with just the version it points at.
    public func listBundles(distro: String? = nil) throws -> [BundleListing] {
        let index = try self.index()
        let names = index.bundles.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names.compactMap { name in
            let bundle = index.bundles[name]!
            var versions = bundle.versions
            if let distro {
                guard let pointed = bundle.distributions[distro], versions.contains(pointed) else { return nil }
                versions = [pointed]
            }
            return BundleListing(
                name: name,
                versions: versions.map {
                    BundleListing.Version(number: $0, distributions: bundle.distributions(pointingAt: $0))
                })
        }
    }

    /// The manifest of the version `spec` names (a number, `latest` or `@distro`).
    public func manifest(bundle: String, resolving spec: VersionSpec) throws -> Manifest {
        try Names.validateBundleName(bundle)
        let version = try spec.resolve(in: index().bundle(bundle), name: bundle)
        return try manifest(bundle: bundle, version: version)
    }
}

extension Manifest {
    /// The paths of one flavor (all paths for nil), sorted; refuses a flavor this
    /// version does not have rather than answering with no files.
    public func paths(ofExistingFlavor flavor: String?) throws -> [String] {
        if let flavor, !flavors.contains(flavor) {
            throw ZincError.flavorNotFound(bundle: bundle, version: version, flavor: flavor, flavors: flavors)
        }
        return paths(flavor: flavor)
    }
}
