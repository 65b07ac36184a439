import Zinc

/// `repo.json`: where each catalog can be fetched from, and which bundles the repo
/// keeps in sync. A tracked bundle's `version` is the version its folder holds and
/// apps use; a sync changes it only once the new folder is complete (the switch).
public struct RepoState: Equatable, Sendable {
    /// Where one catalog is fetched from.
    package struct CatalogSources: Equatable, Sendable {
        /// Tried in order; the next one is used when one cannot be reached.
        package var urls: [String]
        /// The `ETag` each URL last sent for `catalog.json.gz`, for `If-None-Match`.
        package var etags: [String: String]
        /// The `ETag` each URL last sent for the index signature, whose bytes the repo
        /// keeps beside the index: an unchanged index's signature is asked for with
        /// `If-None-Match` too, and checked again as kept.
        package var signatureETags: [String: String]
        /// With keys, only an index and manifests signed by one of them are used.
        package var trustedKeys: [PublicKey]
        /// The sequence number of the last signed index accepted: a lower one is a rollback.
        package var indexSequence: Int64?

        package init(
            urls: [String] = [], etags: [String: String] = [:], signatureETags: [String: String] = [:],
            trustedKeys: [PublicKey] = [], indexSequence: Int64? = nil
        ) {
            self.urls = urls
            self.etags = etags
            self.signatureETags = signatureETags
            self.trustedKeys = trustedKeys
            self.indexSequence = indexSequence
        }
    }

    /// A bundle (and distribution, and flavor) kept in sync, with the version last synced.
    public struct TrackedBundle: Equatable, Sendable {
        public var catalog: String
        public var bundle: String
        public var distro: String
        public var flavor: String?
        /// The version checked out under bundles/, nil before the first sync.
        public var version: Int?
        /// The app gets files of its own, which it may write to: clones of the objects
        /// where the file system makes them, copies otherwise, never links into the
        /// store. Their content is the app's: a sync does not judge or repair it.
        public var writableFiles = false
        /// The version checked out before `version`, whose folder is kept as the spare
        /// that the next update brings to its version by touching only the files that
        /// differ (links only, never writable files).
        package var spareVersion: Int?
        /// The highest serial of the distribution's rollout file accepted: a lower one is
        /// a stale cache or a replay (FORMAT.md, "Rollouts").
        package var rolloutSerial: Int64?
        /// The `ETag` the source sent with the rollout file kept, for `If-None-Match`.
        package var rolloutETags: [String: String] = [:]

        package init(catalog: String, bundle: String, distro: String, flavor: String? = nil, version: Int? = nil) {
            self.catalog = catalog
            self.bundle = bundle
            self.distro = distro
            self.flavor = flavor
            self.version = version
        }
    }

    package var catalogs: [String: CatalogSources]
    /// Sorted by catalog id, then bundle name; one entry per bundle of a catalog.
    package var bundles: [TrackedBundle]
    /// Who this install is to a rollout: made with the repo (a repo of an earlier client
    /// gets one at its first sync), kept in `repo.json`, so restored with the repo.
    package var install: InstallIdentity?

    package init(catalogs: [String: CatalogSources] = [:], bundles: [TrackedBundle] = [], install: InstallIdentity? = nil) {
        self.catalogs = catalogs
        self.bundles = bundles
        self.install = install
    }

    /// Adds or replaces the tracking of one bundle, keeping its checked-out version
    /// when only the distro changes (the next sync moves it). Returns its index in
    /// `bundles`, which stay in catalog and bundle order.
    @discardableResult
    mutating func track(_ tracked: TrackedBundle) -> Int {
        var entry = tracked
        if let i = bundles.firstIndex(where: { $0.catalog == tracked.catalog && $0.bundle == tracked.bundle }) {
            // Another flavor or kind of files is another folder: the next sync builds it.
            if bundles[i].flavor == tracked.flavor, bundles[i].writableFiles == tracked.writableFiles {
                entry.version = bundles[i].version
                // And its spare, which the next update (or seed) brings to the new version.
                entry.spareVersion = bundles[i].spareVersion
            }
            bundles[i] = entry
        } else {
            bundles.append(entry)
        }
        bundles.sort { ($0.catalog, $0.bundle) < ($1.catalog, $1.bundle) }
        return bundles.partitionPoint { ($0.catalog, $0.bundle) < (tracked.catalog, tracked.bundle) }
    }

    static let fileLimit: Int64 = 64 << 20

    static func load(from root: String) throws -> RepoState {
        let path = root + "/" + Repo.stateFileName
        guard let bytes = try AtomicFile.read(path, limit: fileLimit) else { throw ClientError.repoNotFound(root) }
        return try parse(bytes, path: path)
    }

    func save(in root: String) throws {
        try AtomicFile.write(json().prettyEncoded(), to: root + "/" + Repo.stateFileName)
    }

    package static func parse(_ bytes: [UInt8], path: String) throws -> RepoState {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard case .object(let top)? = try? JSONValue.parse(bytes) else { throw corrupt("not a JSON object") }
        guard case .string("1")? = top["format"] else { throw corrupt("no 'format' \"1\"") }
        var state = RepoState()
        if case .object(let catalogs)? = top["catalogs"] {
            for (id, value) in catalogs {
                guard case .object(let entry) = value, case .array(let urls)? = entry["sources"] else {
                    throw corrupt("catalog '\(id)' has no 'sources' list")
                }
                var sources = CatalogSources()
                for url in urls {
                    guard case .string(let text) = url else { throw corrupt("catalog '\(id)' has a non-string source") }
                    sources.urls.append(text)
                }
                if case .object(let etags)? = entry["etags"] {
                    for (url, etag) in etags { if case .string(let text) = etag { sources.etags[url] = text } }
                }
                if case .object(let etags)? = entry["signature_etags"] {
                    for (url, etag) in etags { if case .string(let text) = etag { sources.signatureETags[url] = text } }
                }
                if case .array(let keys)? = entry["trusted_keys"] {
                    for key in keys {
                        guard case .string(let text) = key else { throw corrupt("catalog '\(id)' has a non-string trusted key") }
                        sources.trustedKeys.append(try PublicKey.parse(Array(text.utf8), path: path))
                    }
                }
                if case .int(let sequence)? = entry["index_sequence"] { sources.indexSequence = sequence }
                state.catalogs[id] = sources
            }
        }
        if case .array(let bundles)? = top["bundles"] {
            for value in bundles {
                guard case .object(let entry) = value,
                    case .string(let catalog)? = entry["catalog"],
                    case .string(let bundle)? = entry["bundle"],
                    case .string(let distro)? = entry["distro"]
                else {
                    throw corrupt("a tracked bundle lacks 'catalog', 'bundle' or 'distro'")
                }
                var tracked = TrackedBundle(catalog: catalog, bundle: bundle, distro: distro)
                if case .string(let flavor)? = entry["flavor"] { tracked.flavor = flavor }
                if case .int(let version)? = entry["version"] { tracked.version = Int(version) }
                if case .bool(true)? = entry["writable"] { tracked.writableFiles = true }
                if case .int(let spare)? = entry["spare"], spare > 0 { tracked.spareVersion = Int(spare) }
                if case .int(let serial)? = entry["rollout_serial"] { tracked.rolloutSerial = serial }
                if case .object(let etags)? = entry["rollout_etags"] {
                    for (url, etag) in etags { if case .string(let text) = etag { tracked.rolloutETags[url] = text } }
                }
                try Names.checked(in: path) {
                    try Names.validateCatalogID(catalog)
                    try Names.validateBundleName(bundle)
                    try Names.validateDistroName(distro)
                    try tracked.flavor.map(Names.validateFlavorName)
                }
                state.bundles.append(tracked)
            }
        }
        if case .object(let install)? = top["install"] {
            guard case .string(let id)? = install["id"] else { throw corrupt("'install' has no 'id'") }
            var texts = [(key: String, value: String)]()
            if case .object(let values)? = install["attributes"] {
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let text) = value else { throw corrupt("install attribute '\(key)' is not a string") }
                    texts.append((key, text))
                }
            }
            try Names.checked(in: path) {
                state.install = try InstallIdentity(id: id, attributes: texts.map { try Attribute(key: $0.key, value: $0.value) })
            }
        }
        return state
    }

    func json() -> JSONValue {
        var top: [String: JSONValue] = [
            "format": .string("1"),
            "catalogs": .object(
                catalogs.mapValues { sources in
                    var entry: [String: JSONValue] = [
                        "sources": .array(sources.urls.map { .string($0) }),
                        "etags": .object(sources.etags.mapValues { .string($0) }),
                    ]
                    if !sources.signatureETags.isEmpty {
                        entry["signature_etags"] = .object(sources.signatureETags.mapValues { .string($0) })
                    }
                    if !sources.trustedKeys.isEmpty {
                        entry["trusted_keys"] = .array(sources.trustedKeys.map { .string(String($0.text.dropLast())) })
                    }
                    if let sequence = sources.indexSequence { entry["index_sequence"] = .int(sequence) }
                    return .object(entry)
                }),
            "bundles": .array(
                bundles.map { tracked in
                    var entry: [String: JSONValue] = [
                        "catalog": .string(tracked.catalog),
                        "bundle": .string(tracked.bundle),
                        "distro": .string(tracked.distro),
                    ]
                    if let flavor = tracked.flavor { entry["flavor"] = .string(flavor) }
                    if let version = tracked.version { entry["version"] = .int(Int64(version)) }
                    if tracked.writableFiles { entry["writable"] = .bool(true) }
                    if let spare = tracked.spareVersion { entry["spare"] = .int(Int64(spare)) }
                    if let serial = tracked.rolloutSerial { entry["rollout_serial"] = .int(serial) }
                    if !tracked.rolloutETags.isEmpty { entry["rollout_etags"] = .object(tracked.rolloutETags.mapValues { .string($0) }) }
                    return .object(entry)
                }),
        ]
        if let install {
            top["install"] = .object([
                "id": .string(install.id), "attributes": .object(install.attributes.mapValues { .string($0) }),
            ])
        }
        return .object(top)
    }
}
