import Zinc

/// Options of a sync.
public struct SyncOptions: Sendable {
    /// A strategy to use for every update instead of the cost model's choice.
    public var strategy: FetchStrategy?
    /// How requests weigh against bytes; nil (the default): as the link to the catalog's
    /// source measures, a round trip costing what the link moves meanwhile (see
    /// `LinkEstimate`).
    public var costModel: CostModel?
    /// Requests in flight at once where objects are fetched one by one, each on a
    /// kept-alive connection of its own.
    public var concurrency: Int
    /// The most an index may weigh, gzipped or not, and a manifest's gzipped download: a
    /// server cannot make the client read an endless document. A manifest's JSON is read
    /// as a stream, up to the size its gzip trailer declares (at most 1 GiB).
    public var documentLimit: Int64
    /// Makes the transport for a tracked URL: libcurl by default (on Linux and macOS),
    /// `URLSessionTransport`'s `sourceFactory` (the ZincURLSession library) for an app's
    /// own networking, and on iOS, which has no libcurl.
    public var sourceFactory: @Sendable (String) throws -> CatalogSource
    /// Told how each bundle's download and the whole sync advance, for progress displays:
    /// at most ten times a second while bytes arrive, and at each change of phase (see
    /// ``SyncProgress``). Nil: nothing is counted.
    public var progress: (@Sendable (SyncProgress) -> Void)?
    /// Stops the sync when cancelled (the async API cancels it with its task).
    public var cancellation: SyncCancellation?
    /// The most one bundle's update may download: a bundle whose update would move more
    /// is skipped (``SyncReport/BundleSync/Outcome/skipped``) and stays at its version.
    public var maxBytes: Int64?
    /// Attributes of this install for this sync, set over those the repo keeps (an app's
    /// version, its platform, a cohort): what a rollout's conditions test.
    public var attributes: [Attribute] = []

    public static let defaultDocumentLimit: Int64 = 64 << 20
    /// Enough to hide a phone's round trip behind the transfer of the objects before it,
    /// few enough that a CDN sees an ordinary browser's connection count.
    public static let defaultConcurrency = 8

    public init(
        strategy: FetchStrategy? = nil, costModel: CostModel? = nil, concurrency: Int = defaultConcurrency,
        documentLimit: Int64 = defaultDocumentLimit,
        sourceFactory: @escaping @Sendable (String) throws -> CatalogSource = makeCatalogSource,
        progress: (@Sendable (SyncProgress) -> Void)? = nil
    ) {
        self.progress = progress
        self.strategy = strategy
        self.costModel = costModel
        self.concurrency = max(1, concurrency)
        self.documentLimit = documentLimit
        self.sourceFactory = sourceFactory
    }
}
