/// What updating to the newest version costs each version still in use: the versions
/// distributions (and their `_name` previous pointers) point at, older than the newest.
public struct UpdateCosts: Equatable, Sendable {
    /// One version still in use, and what updating from it downloads.
    public struct Row: Equatable, Sendable {
        /// The distributions and previous pointers at `diff.from`, sorted.
        public let distributions: [String]
        public let diff: VersionDiff

        public init(distributions: [String], diff: VersionDiff) {
            self.distributions = distributions
            self.diff = diff
        }
    }

    public let bundle: String
    public let flavor: String?
    public let to: Int
    /// Newest first.
    public let rows: [Row]
}

extension UpdateCosts {
    /// `zinc diff --summary`: the cost of updating to `to` (the newest by default) from
    /// each older version of `bundle` in `catalog` that a distribution or previous
    /// pointer holds. A version without `flavor` is left out: no client of that flavor
    /// can be on it. Reads the catalog, changes nothing.
    public init(
        _ catalog: Catalog, bundle: String, to: VersionSpec = .latest, flavor: String? = nil,
        model: CostModel = CostModel()
    ) throws {
        try Names.validateBundleName(bundle)
        let entry = try catalog.index().bundle(bundle)
        let target = try to.resolve(in: entry, name: bundle)
        let new = try catalog.manifest(bundle: bundle, version: target)
        let newChunks = catalog.chunkList(of: new)
        let newSizes = catalog.contentSizes(of: new)
        let archiveStored = try catalog.holdsArchive(of: new, flavor: flavor)
        _ = try new.paths(ofExistingFlavor: flavor)
        let inUse = Set(entry.distributions.values).filter { $0 < target && entry.versions.contains($0) }
        var rows = [Row]()
        for version in inUse.sorted(by: >) {
            let old = try catalog.manifest(bundle: bundle, version: version)
            if let flavor, !old.flavors.contains(flavor) { continue }
            rows.append(
                Row(
                    distributions: entry.distributions(pointingAt: version),
                    diff: try VersionDiff(
                        from: old, to: new, flavor: flavor, model: model, chunkLists: (catalog.chunkList(of: old), newChunks),
                        contentSizes: (catalog.contentSizes(of: old), newSizes), archiveStored: archiveStored)))
        }
        self.init(bundle: bundle, flavor: flavor, to: target, rows: rows)
    }
}

/// `zinc diff --summary --json`: each row a `zinc diff --json` document with the
/// distributions at its `from`.
extension UpdateCosts: Encodable {
    private enum CodingKeys: CodingKey { case bundle, flavor, to, versions }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(flavor, forKey: .flavor)
        try container.encode(to, forKey: .to)
        try container.encode(rows, forKey: .versions)
    }
}

extension UpdateCosts.Row: Encodable {
    private enum CodingKeys: CodingKey { case distributions }

    public func encode(to encoder: any Encoder) throws {
        try diff.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distributions, forKey: .distributions)
    }
}
