/// What changed between two versions of a bundle (of one flavor, or all its files), and
/// what a client holding the first pays to download the second: `zinc diff` and the
/// browser's diff page.
public struct VersionDiff: Equatable, Sendable {
    /// One file of a version: its object as stored.
    public struct File: Equatable, Sendable {
        public let path: String
        public let object: StoredObject

        public init(path: String, object: StoredObject) {
            self.path = path
            self.object = object
        }
    }

    /// A path in both versions whose content differs.
    public struct Change: Equatable, Sendable {
        public let path: String
        public let old: StoredObject
        public let new: StoredObject
    }

    public let bundle: String
    public let flavor: String?
    public let from: Int
    public let to: Int
    /// Each list sorted by path (as bytes).
    public let added: [File]
    public let removed: [File]
    public let changed: [Change]
    public let unchanged: Int
    /// The download of `to` by a client that holds exactly `from`'s objects, planned as
    /// the client's sync plans it: the objects built from chunks (`chunks`), and the
    /// others (`plan`).
    public let plan: FetchPlan
    /// The missing objects built from the chunks of `from` and ranges of their own (see
    /// `ChunkList`), one request each.
    public let chunks: [ChunkAssembly]

    /// Compares two manifests of the same bundle. `flavor` must be one both versions have
    /// (nil compares all files). With the versions' chunk lists, objects that share
    /// chunks with the old version's are priced as ranges.
    public init(
        from old: Manifest, to new: Manifest, flavor: String? = nil, model: CostModel = CostModel(),
        chunkLists: (old: ChunkList?, new: ChunkList?) = (nil, nil)
    ) throws {
        let oldPaths = try old.paths(ofExistingFlavor: flavor)
        let newPaths = try new.paths(ofExistingFlavor: flavor)
        var added = [File](), removed = [File](), changed = [Change]()
        var unchanged = 0
        for path in newPaths {
            let object = new.files[path]!.object
            if let previous = old.files[path], previous.isIn(flavor: flavor) {
                if previous.object.digest == object.digest {
                    unchanged += 1
                } else {
                    changed.append(Change(path: path, old: previous.object, new: object))
                }
            } else {
                added.append(File(path: path, object: object))
            }
        }
        for path in oldPaths where !(new.files[path]?.isIn(flavor: flavor) ?? false) {
            removed.append(File(path: path, object: old.files[path]!.object))
        }
        let held = old.objects(flavor: flavor)
        let wanted = new.objects(flavor: flavor)
        let heldChunks = Set(
            held.values.flatMap { object in chunkLists.old?.objects[object.digest].map { $0.chunks.map(\.content) } ?? [] })
        let (assemblies, whole) = ChunkAssembly.plan(
            wanted.filter { held[$0.key] == nil }.map(\.value).sorted { $0.digest < $1.digest }, list: chunkLists.new,
            held: heldChunks.contains)
        self.bundle = new.bundle
        self.flavor = flavor
        self.from = old.version
        self.to = new.version
        self.added = added
        self.removed = removed
        self.changed = changed
        self.unchanged = unchanged
        chunks = assemblies
        self.plan = FetchPlan.make(
            missing: whole,
            archiveObjects: Array(wanted.values), fileCount: newPaths.count,
            archivePath: Catalog.archivePath(bundle: new.bundle, version: new.version, flavor: flavor),
            model: model, chunked: assemblies.map(\.object))
    }
}

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

extension Catalog {
    /// `zinc diff --from --to`: the two versions `from` and `to` name.
    public func diff(
        bundle: String, from: VersionSpec, to: VersionSpec, flavor: String? = nil,
        model: CostModel = CostModel()
    ) throws -> VersionDiff {
        try Names.validateBundleName(bundle)
        let entry = try index().bundle(bundle)
        let old = try manifest(bundle: bundle, version: from.resolve(in: entry, name: bundle))
        let new = try manifest(bundle: bundle, version: to.resolve(in: entry, name: bundle))
        return try VersionDiff(from: old, to: new, flavor: flavor, model: model, chunkLists: (chunkList(of: old), chunkList(of: new)))
    }

    /// A version's chunk list for pricing: none when it has none or it cannot be read
    /// (clients then fetch whole objects too).
    private func chunkList(of manifest: Manifest) -> ChunkList? {
        try? readChunkList(bundle: manifest.bundle, version: manifest.version)
    }

    /// `zinc diff --summary`: the cost of updating to `to` (the newest by default) from
    /// each older version a distribution or previous pointer holds. A version without
    /// `flavor` is left out: no client of that flavor can be on it.
    public func updateCosts(
        bundle: String, to: VersionSpec = .latest, flavor: String? = nil,
        model: CostModel = CostModel()
    ) throws -> UpdateCosts {
        try Names.validateBundleName(bundle)
        let entry = try index().bundle(bundle)
        let target = try to.resolve(in: entry, name: bundle)
        let new = try manifest(bundle: bundle, version: target)
        let newChunks = chunkList(of: new)
        _ = try new.paths(ofExistingFlavor: flavor)
        let inUse = Set(entry.distributions.values).filter { $0 < target && entry.versions.contains($0) }
        var rows = [UpdateCosts.Row]()
        for version in inUse.sorted(by: >) {
            let old = try manifest(bundle: bundle, version: version)
            if let flavor, !old.flavors.contains(flavor) { continue }
            rows.append(
                UpdateCosts.Row(
                    distributions: entry.distributions(pointingAt: version),
                    diff: try VersionDiff(
                        from: old, to: new, flavor: flavor, model: model, chunkLists: (chunkList(of: old), newChunks))))
        }
        return UpdateCosts(bundle: bundle, flavor: flavor, to: target, rows: rows)
    }
}

extension VersionDiff {
    /// The stored bytes of the chunk ranges to fetch.
    public var chunkBytes: Int64 { chunks.reduce(0) { $0 + $1.fetchedBytes } }

    /// `zinc diff --json`; FILE is `{"sha", "format", "stored_size", "size"}` (`size`
    /// the content's, null when only the gzipped form is listed).
    public func json() -> JSONValue { .object(jsonMembers()) }

    func jsonMembers() -> [String: JSONValue] {
        func file(_ object: StoredObject) -> [String: JSONValue] {
            [
                "sha": .string(object.sha), "format": .string(object.preferredFormat.rawValue),
                "stored_size": .int(object.preferredSize), "size": object.contentSize.map { .int($0) } ?? .null,
            ]
        }
        func listed(_ files: [File]) -> JSONValue {
            .array(files.map { .object(file($0.object).merging(["path": .string($0.path)]) { $1 }) })
        }
        func transfer(_ strategy: FetchStrategy) -> JSONValue {
            guard let transfer = plan.transfers[strategy] else { return .null }
            return .object([
                "requests": .int(Int64(transfer.requests)), "bytes": .int(transfer.bytes),
                "cost": .int(plan.estimates[strategy]!),
            ])
        }
        return [
            "bundle": .string(bundle), "flavor": flavor.map { .string($0) } ?? .null,
            "from": .int(Int64(from)), "to": .int(Int64(to)),
            "added": listed(added), "removed": listed(removed), "unchanged": .int(Int64(unchanged)),
            "changed": .array(
                changed.map {
                    .object([
                        "path": .string($0.path), "old": .object(file($0.old)),
                        "new": .object(file($0.new)),
                    ])
                }),
            "download": .object([
                "missing_objects": .int(Int64(plan.missing.count + chunks.count)), "strategy": .string(plan.strategy.rawValue),
                "lmfo": transfer(.lmfo), "objects": transfer(.objects), "archive": transfer(.archive),
                "chunks": .object([
                    "objects": .int(Int64(chunks.count)), "requests": .int(Int64(chunks.count)),
                    "bytes": .int(chunkBytes), "reused_bytes": .int(chunks.reduce(0) { $0 + $1.reusedBytes }),
                ]),
            ]),
        ]
    }
}

extension UpdateCosts {
    /// `zinc diff --summary --json`: each row a `zinc diff --json` document with the
    /// distributions at its `from`.
    public func json() -> JSONValue {
        .object([
            "bundle": .string(bundle), "flavor": flavor.map { .string($0) } ?? .null, "to": .int(Int64(to)),
            "versions": .array(
                rows.map { row in
                    .object(row.diff.jsonMembers().merging(["distributions": .array(row.distributions.map { .string($0) })]) { $1 })
                }),
        ])
    }
}
