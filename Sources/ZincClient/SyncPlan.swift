import Zinc

/// What a sync would do, found before anything is downloaded (`zinc sync --dry-run`,
/// ``Repo/plan(options:)``): per bundle, the version it would move to and the bytes and
/// requests of the download the cost model chose. The indexes, manifests and chunk
/// lists are fetched to make it (and kept, so the sync does not fetch them again). A
/// plan is also what a sync can be told to carry out (``Repo/sync(following:options:progress:)``):
/// each bundle then moves to the version planned, by the strategy planned, even if its
/// distribution moved meanwhile, so what was approved is what is downloaded.
public struct SyncPlan: Sendable, Encodable {
    public var bundles: [BundlePlan] = []

    /// The bytes every planned download adds up to.
    public var bytes: Int64 { bundles.reduce(0) { $0 + $1.bytes } }

    private enum CodingKeys: CodingKey { case bundles, bytes }

    /// The bundles and their total bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundles, forKey: .bundles)
        try container.encode(bytes, forKey: .bytes)
    }

    func plan(catalog: String, bundle: String) -> BundlePlan? {
        bundles.first { $0.catalog == catalog && $0.bundle == bundle }
    }
}

/// One bundle of a ``SyncPlan``.
public struct BundlePlan: Sendable, Encodable {
    public enum Action: String, Sendable {
        /// Nothing to fetch: the version is checked out and sound.
        case upToDate = "up-to-date"
        /// Another version: its missing objects are fetched and its folder built.
        case update
        /// The version checked out, whose damaged files are fetched again.
        case repair
        /// The plan could not be made (``BundlePlan/failure``).
        case failed
    }

    public let catalog: String
    public let bundle: String
    public let flavor: String?
    /// The version checked out now, nil before the first sync.
    public let currentVersion: Int?
    /// The version the sync would move to (nil when the plan failed before knowing it).
    public internal(set) var version: Int?
    public internal(set) var action = Action.failed
    /// How the objects to fetch whole would come; nil when none are.
    public internal(set) var strategy: FetchStrategy?
    /// Objects the repo lacks, and how many of them would be assembled from chunks.
    public internal(set) var missingObjects = 0
    public internal(set) var chunkedObjects = 0
    /// The bytes and requests of the download (archive or objects, and chunk ranges).
    public internal(set) var bytes: Int64 = 0
    public internal(set) var requests = 0
    public internal(set) var failure: SyncError?
    /// The version the install follows and why, when the distribution has a rollout.
    public internal(set) var follows: FollowedVersion?

    init(catalog: String, bundle: String, flavor: String?, currentVersion: Int?) {
        self.catalog = catalog
        self.bundle = bundle
        self.flavor = flavor
        self.currentVersion = currentVersion
    }

    public var name: String { "\(catalog).\(bundle)" + (flavor.map { "~" + $0 } ?? "") }

    public var line: String {
        switch action {
        case .failed: return "\(name): cannot plan: \(failure?.description ?? "")"
        case .upToDate: return "\(name): up to date at version \(version ?? 0)" + follows.lineSuffix
        case .update, .repair:
            let to = version ?? 0
            let move =
                action == .repair ? "repair at version \(to)" : currentVersion.map { "\($0) -> \(to)" } ?? "get version \(to)"
            var how = "\(HumanFormat.count(missingObjects, "object")) missing"
            if let strategy { how += ", by \(strategy.rawValue)" }
            if chunkedObjects > 0 { how += ", \(chunkedObjects) from chunks" }
            return "\(name): would \(move): \(how); \(HumanFormat.bytes(bytes)) in \(HumanFormat.count(requests, "request"))"
                + follows.lineSuffix
        }
    }

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, flavor
        case currentVersion = "current_version"
        case version, action, strategy
        case missingObjects = "missing_objects"
        case chunkedObjects = "chunked_objects"
        case bytes, requests, follows
    }

    /// The failure's keys beside the others.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(bundle, forKey: .bundle)
        try container.encodeIfPresent(flavor, forKey: .flavor)
        try container.encodeIfPresent(currentVersion, forKey: .currentVersion)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encode(action.rawValue, forKey: .action)
        try container.encodeIfPresent(strategy?.rawValue, forKey: .strategy)
        try container.encode(missingObjects, forKey: .missingObjects)
        try container.encode(chunkedObjects, forKey: .chunkedObjects)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(requests, forKey: .requests)
        try container.encodeIfPresent(follows, forKey: .follows)
        try failure?.encode(to: encoder)
    }
}
