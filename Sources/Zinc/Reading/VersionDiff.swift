/// What changed between two versions of a bundle (of one flavor, or all its files), and
/// what a client holding the first pays to download the second: `zinc diff` and the
/// browser's diff page.
public struct VersionDiff: Equatable, Sendable {
    /// One file of a version: its object as stored, and its content's size where the
    /// catalog records it (see `StoredObject.contentSize(sizes:)`).
    public struct File: Equatable, Sendable {
        public let path: String
        package let object: StoredObject
        public let size: Int64?

        package init(path: String, object: StoredObject, size: Int64? = nil) {
            self.path = path
            self.object = object
            self.size = size ?? object.contentSize
        }
    }

    /// A path in both versions whose content differs.
    public struct Change: Equatable, Sendable {
        public let path: String
        package let old: StoredObject
        package let new: StoredObject
        /// The contents' sizes where recorded.
        public let oldSize: Int64?
        public let newSize: Int64?
    }

    /// A content that left one path and arrived at another: the client already holds it,
    /// so it costs no download.
    public struct Rename: Equatable, Sendable {
        public let from: String
        public let to: String
        package let object: StoredObject
        public let size: Int64?
    }

    public let bundle: String
    public let flavor: String?
    public let from: Int
    public let to: Int
    /// Why `from` was compared when the caller did not name it; nil when it did.
    public internal(set) var defaultBase: DefaultBase?
    /// The live rollout of the distribution `from` was taken from (`@D`, or the default
    /// `@master`): that distribution's installs follow `from`, its control, or the
    /// rollout's candidate. Nil when there is none, or `from` was a number.
    public internal(set) var fromRollout: Rollout?
    /// Each list sorted by path (as bytes; renames by their new path). A removed path
    /// whose content an added path holds is a rename, in neither `added` nor `removed`.
    public let added: [File]
    public let removed: [File]
    public let changed: [Change]
    public let renamed: [Rename]
    public let unchanged: Int
    /// The download of `to` by a client that holds exactly `from`'s objects, planned as
    /// the client's sync plans it: the objects built from chunks (`chunks`), and the
    /// others (`plan`).
    package let plan: FetchPlan
    /// The missing objects built from the chunks of `from` and ranges of their own (see
    /// `ChunkList`), one request each.
    package let chunks: [ChunkAssembly]
    /// The stored bytes each object of `to` costs the download: its chunk ranges, or
    /// itself whole; an object missing here is held already and costs nothing.
    private let fetched: [SHA1.Digest: Int64]

    /// Which version a diff compares against when none is named: the one the bundle's
    /// `master` distribution points at, else the version before.
    public enum DefaultBase: Equatable, Sendable {
        case distro(String)
        case previousVersion
    }

    /// Compares two manifests of the same bundle. `flavor` must be one both versions have
    /// (nil compares all files). With the versions' chunk lists, objects that share
    /// chunks with the old version's are priced as ranges; with their sizes files,
    /// gzipped objects get their content sizes. `archiveStored`: whether the catalog holds
    /// `new`'s archive (of the flavor); without it the archive strategies are not priced.
    package init(
        from old: Manifest, to new: Manifest, flavor: String? = nil, model: CostModel = CostModel(),
        chunkLists: (old: ChunkList?, new: ChunkList?) = (nil, nil),
        contentSizes: (old: ContentSizes?, new: ContentSizes?) = (nil, nil), archiveStored: Bool = true
    ) throws {
        try old.requireFlavor(flavor)
        try new.requireFlavor(flavor)
        // Only the differences are sorted, not every path: `zinc list --sizes` diffs each
        // version of a long history with the one before.
        var added = [File](), changed = [Change](), removed = [File]()
        var unchanged = 0, fileCount = 0
        for (path, entry) in new.files where entry.isIn(flavor: flavor) {
            fileCount += 1
            let object = entry.object
            if let previous = old.files[path], previous.isIn(flavor: flavor) {
                if previous.object.digest == object.digest {
                    unchanged += 1
                } else {
                    changed.append(
                        Change(
                            path: path, old: previous.object, new: object,
                            oldSize: previous.object.contentSize(sizes: contentSizes.old),
                            newSize: object.contentSize(sizes: contentSizes.new)))
                }
            } else {
                added.append(File(path: path, object: object, size: object.contentSize(sizes: contentSizes.new)))
            }
        }
        for (path, entry) in old.files where entry.isIn(flavor: flavor) && !(new.files[path]?.isIn(flavor: flavor) ?? false) {
            removed.append(File(path: path, object: entry.object, size: entry.object.contentSize(sizes: contentSizes.old)))
        }
        func byPath(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
        added.sort { byPath($0.path, $1.path) }
        removed.sort { byPath($0.path, $1.path) }
        changed.sort { byPath($0.path, $1.path) }
        (self.added, self.removed, self.renamed) = Self.pairRenames(added: added, removed: removed)
        let held = old.objectsByDigest(flavor: flavor)
        let wanted = new.objectsByDigest(flavor: flavor)
        let heldChunks = Set(
            held.values.flatMap { object in chunkLists.old?.objects[object.digest].map { $0.chunks.map(\.content) } ?? [] })
        let (assemblies, whole) = ChunkAssembly.plan(
            wanted.filter { held[$0.key] == nil }.map(\.value).sorted { $0.digest < $1.digest }, list: chunkLists.new,
            held: heldChunks.contains)
        self.bundle = new.bundle
        self.flavor = flavor
        self.from = old.version
        self.to = new.version
        self.changed = changed
        self.unchanged = unchanged
        let plan = FetchPlan.make(
            missing: whole,
            archiveObjects: Array(wanted.values), fileCount: fileCount, archiveStored: archiveStored,
            archivePath: Catalog.archivePath(bundle: new.bundle, version: new.version, flavor: flavor),
            model: model, chunked: assemblies.map(\.object))
        self.plan = plan
        // What the archive download carries whole is taken from it, as the client does.
        chunks = plan.assembling(assemblies)
        fetched = Dictionary(
            uniqueKeysWithValues: plan.missing.map { ($0.digest, $0.preferredSize) } + chunks.map { ($0.object.digest, $0.fetchedBytes) })
    }

    /// Pairs each removed path with an added path of the same content, in path order
    /// among several of one content: those are renames. Returns the rest as they were.
    private static func pairRenames(added: [File], removed: [File]) -> (added: [File], removed: [File], renamed: [Rename]) {
        var gone = [SHA1.Digest: [File]]()
        for file in removed.reversed() { gone[file.object.digest, default: []].append(file) }
        var renamedFrom = Set<String>()
        var stillAdded = [File](), renamed = [Rename]()
        for file in added {
            guard let source = gone[file.object.digest]?.popLast() else {
                stillAdded.append(file)
                continue
            }
            renamedFrom.insert(source.path)
            renamed.append(Rename(from: source.path, to: file.path, object: file.object, size: file.size ?? source.size))
        }
        return (stillAdded, removed.filter { !renamedFrom.contains($0.path) }, renamed)
    }

    /// The stored bytes downloading `object` (of `to`) costs on its own: nothing when the
    /// client holds it, the ranges of its chunks it lacks, or all of it. A plan's total
    /// (`download`) adds the archive's headers or the requests' on top.
    package func downloadBytes(of object: StoredObject) -> Int64 { fetched[object.digest] ?? 0 }

    /// The whole download of `to`: the requests and bytes of the plan's strategy for the
    /// objects fetched whole, and one request per object built from chunks.
    package var download: FetchPlan.Transfer {
        let whole = plan.missing.isEmpty ? FetchPlan.Transfer(requests: 0, bytes: 0) : plan.transfers[plan.strategy]!
        let (bytes, overflow) = whole.bytes.addingReportingOverflow(chunkBytes)
        return FetchPlan.Transfer(requests: whole.requests + chunks.count, bytes: overflow ? .max : bytes)
    }
}

extension VersionDiff {
    /// `zinc diff --from --to`: the diff between the two versions of `bundle` in
    /// `catalog` that `from` and `to` name. Without `from`, the version the bundle's
    /// `master` distribution points at unless that is `to`'s, else the version before;
    /// the diff says which (`defaultBase`). Reads the catalog, changes nothing.
    public init(
        _ catalog: Catalog, bundle: String, from: VersionSpec?, to: VersionSpec, flavor: String? = nil,
        model: CostModel = CostModel()
    ) throws {
        try Names.validateBundleName(bundle)
        let entry = try catalog.index().bundle(bundle)
        let target = try to.resolve(in: entry, name: bundle)
        let base: Int
        let reason: DefaultBase?
        if let from {
            (base, reason) = (try from.resolve(in: entry, name: bundle), nil)
        } else {
            (base, reason) = try Self.defaultBase(of: entry, bundle: bundle, to: target)
        }
        let baseDistro: String? =
            switch (from, reason) {
            case (.distro(let distro)?, _), (nil, .distro(let distro)?): distro
            default: nil
            }
        let old = try catalog.manifest(bundle: bundle, version: base)
        let new = try catalog.manifest(bundle: bundle, version: target)
        self = try VersionDiff(
            from: old, to: new, flavor: flavor, model: model,
            chunkLists: (catalog.chunkList(of: old), catalog.chunkList(of: new)),
            contentSizes: (catalog.contentSizes(of: old), catalog.contentSizes(of: new)),
            archiveStored: catalog.holdsArchive(of: new, flavor: flavor))
        defaultBase = reason
        if let baseDistro {
            // Read without `RolloutStore.current()`, which writes a missing log copy: a diff changes nothing.
            fromRollout = try catalog.liveRollouts(in: catalog.index()).first { $0.bundle == bundle && $0.distro == baseDistro }
        }
    }

    /// The version to compare `target` against when none is named: the one the bundle's
    /// `master` distribution points at unless that is `target`, else the version before
    /// `target`. A first version with `master` on it has nothing to compare against.
    private static func defaultBase(
        of entry: CatalogIndex.BundleEntry, bundle: String, to target: Int
    ) throws -> (Int, DefaultBase) {
        let distro = "master"
        if let pointed = entry.distributions[distro], pointed != target, entry.versions.contains(pointed) {
            return (pointed, .distro(distro))
        }
        guard let previous = entry.versions.last(where: { $0 < target }) else {
            throw ZincError.versionNotFound(bundle: bundle, version: "before \(target), its first (give --from)")
        }
        return (previous, .previousVersion)
    }
}

extension VersionDiff.DefaultBase {
    /// `@master` or `previous`, as `zinc diff --json` gives it.
    public var name: String {
        switch self {
        case .distro(let distro): return "@" + distro
        case .previousVersion: return "previous"
        }
    }
}

extension VersionDiff {
    /// The stored bytes of the chunk ranges to fetch.
    public var chunkBytes: Int64 {
        var total = SizeTotal()
        for chunk in chunks { total.add(chunk.fetchedBytes) }
        return total.bytes
    }

}

/// `zinc diff --json`; FILE is `{"sha", "format", "stored_size", "size"}` (`size` the
/// content's, null when not recorded), `download` what the file's object costs.
extension VersionDiff: Encodable {
    private enum CodingKeys: String, CodingKey {
        case bundle, flavor, from, to
        case fromDefault = "from_default"
        case fromRollout = "from_rollout"
        case added, removed, unchanged, changed, renamed, download
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(flavor, forKey: .flavor)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(defaultBase?.name, forKey: .fromDefault)
        try container.encode(fromRollout.map(RolloutReport.init), forKey: .fromRollout)
        try container.encode(added.map { Downloaded(file: $0, download: downloadBytes(of: $0.object)) }, forKey: .added)
        try container.encode(removed, forKey: .removed)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(changed.map { ChangeReport(change: $0, download: downloadBytes(of: $0.new)) }, forKey: .changed)
        try container.encode(renamed, forKey: .renamed)
        try container.encode(DownloadReport(diff: self), forKey: .download)
    }

    /// `{"distro", "state", "control", "candidate", "percentage"}`: the live rollout of
    /// `from`'s distribution, with the share of its installs on the candidate now.
    private struct RolloutReport: Encodable {
        let distro: String
        let state: String
        let control: Int
        let candidate: Int
        let percentage: String

        init(_ rollout: Rollout) {
            distro = rollout.distro
            state = rollout.state.rawValue
            control = rollout.control
            candidate = rollout.candidate
            percentage = rollout.share(at: WallClock.nowMilliseconds() / 1000).description
        }
    }

    /// An added file, with what its object costs.
    private struct Downloaded: Encodable {
        let file: File
        let download: Int64

        private enum CodingKeys: CodingKey { case download }

        func encode(to encoder: any Encoder) throws {
            try file.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(download, forKey: .download)
        }
    }

    /// `{"path", "old": OBJECT, "new": OBJECT, "download"}`.
    private struct ChangeReport: Encodable {
        let change: Change
        let download: Int64

        private enum CodingKeys: CodingKey { case path, old, new, download }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change.path, forKey: .path)
            try container.encode(ObjectReport(change.old, contentSize: change.oldSize), forKey: .old)
            try container.encode(ObjectReport(change.new, contentSize: change.newSize), forKey: .new)
            try container.encode(download, forKey: .download)
        }
    }

    /// `{"missing_objects", "strategy", "lmfo", "objects", "archive", "chunks", "total"}`:
    /// each strategy's transfer (null when it has none), the chunk ranges, and the total.
    private struct DownloadReport: Encodable {
        let diff: VersionDiff

        private enum CodingKeys: String, CodingKey {
            case missingObjects = "missing_objects"
            case strategy, lmfo, objects, archive, chunks, total
        }

        private enum ChunkKeys: String, CodingKey {
            case objects, requests, bytes
            case reusedBytes = "reused_bytes"
        }

        private enum TransferKeys: CodingKey { case requests, bytes, cost }

        func encode(to encoder: any Encoder) throws {
            let plan = diff.plan
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(plan.missing.count + diff.chunks.count, forKey: .missingObjects)
            try container.encode(plan.strategy.rawValue, forKey: .strategy)
            for (strategy, key) in [(FetchStrategy.lmfo, CodingKeys.lmfo), (.objects, .objects), (.archive, .archive)] {
                guard let transfer = plan.transfers[strategy] else {
                    try container.encodeNil(forKey: key)
                    continue
                }
                var members = container.nestedContainer(keyedBy: TransferKeys.self, forKey: key)
                try members.encode(transfer.requests, forKey: .requests)
                try members.encode(transfer.bytes, forKey: .bytes)
                try members.encode(plan.estimates[strategy]!, forKey: .cost)
            }
            var reused = SizeTotal()
            for chunk in diff.chunks { reused.add(chunk.reusedBytes) }
            var chunks = container.nestedContainer(keyedBy: ChunkKeys.self, forKey: .chunks)
            try chunks.encode(diff.chunks.count, forKey: .objects)
            try chunks.encode(diff.chunks.count, forKey: .requests)
            try chunks.encode(diff.chunkBytes, forKey: .bytes)
            try chunks.encode(reused.bytes, forKey: .reusedBytes)
            var total = container.nestedContainer(keyedBy: TransferKeys.self, forKey: .total)
            try total.encode(diff.download.requests, forKey: .requests)
            try total.encode(diff.download.bytes, forKey: .bytes)
        }
    }
}

/// A file as reports list it: its object's members (``ObjectReport``) and its path.
extension VersionDiff.File: Encodable {
    private enum CodingKeys: CodingKey { case path }

    public func encode(to encoder: any Encoder) throws {
        try ObjectReport(object, contentSize: size).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
    }
}

/// A rename: the object's members (``ObjectReport``), `from` and `to`.
extension VersionDiff.Rename: Encodable {
    private enum CodingKeys: CodingKey { case from, to }

    public func encode(to encoder: any Encoder) throws {
        try ObjectReport(object, contentSize: size).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
    }
}
