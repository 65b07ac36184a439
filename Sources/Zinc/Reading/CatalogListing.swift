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

    /// A bundle whose versions were all deleted: the index keeps its name (and the
    /// version numbers it reserved, never given again), with no version to list.
    public var isDeleted: Bool { versions.isEmpty }

    public init(name: String, versions: [Version]) {
        self.name = name
        self.versions = versions
    }
}

/// One version's files as `zinc list_bundle` shows them: sorted by path (of one flavor,
/// or all), each with its content's size where the catalog records it, and the totals.
public struct VersionListing: Sendable {
    package let manifest: Manifest
    public let flavor: String?
    /// Sorted by path (as bytes).
    public let files: [VersionDiff.File]
    public let totals: VersionSize
}

extension Catalog {
    /// The files of the version `spec` names, of `flavor` (which it must have) or all.
    public func listVersion(bundle: String, resolving spec: VersionSpec, flavor: String? = nil) throws -> VersionListing {
        let manifest = try manifest(bundle: bundle, resolving: spec)
        let sizes = contentSizes(of: manifest)
        let files = try manifest.paths(ofExistingFlavor: flavor).map { path in
            let object = manifest.files[path]!.object
            return VersionDiff.File(path: path, object: object, size: object.contentSize(sizes: sizes))
        }
        return VersionListing(
            manifest: manifest, flavor: flavor, files: files,
            totals: try VersionSize(manifest, chunks: nil, sizes: sizes, flavor: flavor))
    }

    /// Every bundle, sorted by name, with all its versions. With `distro`, only the
    /// bundles that have that distribution, each with just the version it points at.
    /// Deleted bundles (no versions left) only when `includingDeleted`, and never with a
    /// `distro`.
    public func listBundles(distro: String? = nil, includingDeleted: Bool = false) throws -> [BundleListing] {
        let index = try self.index()
        let names = index.bundles.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names.compactMap { name in
            let bundle = index.bundles[name]!
            var versions = bundle.versions
            if versions.isEmpty && !includingDeleted { return nil }
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
    package func manifest(bundle: String, resolving spec: VersionSpec) throws -> Manifest {
        try Names.validateBundleName(bundle)
        let version = try spec.resolve(in: index().bundle(bundle), name: bundle)
        return try manifest(bundle: bundle, version: version)
    }
}

extension Manifest {
    /// The paths of one flavor (all paths for nil), sorted; refuses a flavor this
    /// version does not have rather than answering with no files.
    public func paths(ofExistingFlavor flavor: String?) throws -> [String] {
        try requireFlavor(flavor)
        return paths(flavor: flavor)
    }

    /// Refuses a flavor this version does not have (nil, the whole version, it has).
    func requireFlavor(_ flavor: String?) throws {
        if let flavor, !flavors.contains(flavor) {
            throw ZincError.flavorNotFound(bundle: bundle, version: version, flavor: flavor, flavors: flavors)
        }
    }
}
