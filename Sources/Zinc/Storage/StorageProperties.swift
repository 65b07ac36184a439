/// What kind of store a ``CatalogStorage`` is, in one value: what callers adapt to
/// (listing a folder once rather than asking file by file, how many requests to keep in
/// flight), and what it promises (what changes a version), which
/// `StorageConformanceSuite` holds it to.
public struct StorageProperties: Sendable, Equatable {
    /// What a backend's listings say of a file's content.
    public enum ListingFingerprint: Sendable, Equatable {
        /// Nothing: `publish` compares such files by size and reads what it must.
        case none
        /// The hex MD5 of the bytes (an S3 ETag of a single PUT).
        case md5
    }

    /// Whether each call is a round trip over the network: callers then list a folder
    /// once rather than asking about its files one by one.
    public var isRemote: Bool
    /// How many requests to keep in flight for bulk copies: a remote store answers each
    /// after a round trip, so many at once hide its latency; a local disk needs no more
    /// than one per core.
    public var parallelRequests: Int
    /// What makes a version `readVersioned` returns change: each commit, or only the bytes.
    public var versionTracking: VersionTracking
    /// What `entries(in:)` gives as each file's fingerprint.
    public var listingFingerprint: ListingFingerprint
    /// How the catalog's lock objects expire and are refreshed: those of the default
    /// ``CatalogStorage/locks``, and the stale ones `clean` removes.
    public var lockPolicy: LockPolicy

    public init(
        isRemote: Bool, parallelRequests: Int, versionTracking: VersionTracking, listingFingerprint: ListingFingerprint = .none,
        lockPolicy: LockPolicy = .standard
    ) {
        self.isRemote = isRemote
        self.parallelRequests = parallelRequests
        self.versionTracking = versionTracking
        self.listingFingerprint = listingFingerprint
        self.lockPolicy = lockPolicy
    }

    /// A store on this machine's disks or in its memory: one request per core, every
    /// commit a new version, no fingerprints.
    public static var local: StorageProperties {
        StorageProperties(isRemote: false, parallelRequests: AvailableCores.count, versionTracking: .everyCommit)
    }
}
