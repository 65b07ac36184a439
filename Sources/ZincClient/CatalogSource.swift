import Synchronization
import Zinc
import ZincHTTP

#if ZINC_LIBCURL
import ZincCurl
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One place a catalog's static files can be fetched from. Everything the client
/// downloads goes through `fetch`, so a new transport (a signed-URL bucket, a test
/// double serving crafted bytes) plugs in without touching the sync logic.
public protocol CatalogSource: AnyObject, Sendable {
    /// The catalog root URL, as tracked; used in messages.
    var url: String { get }

    /// Appends what `request` asks of a catalog file to `sink` (see ``FetchSink``): the
    /// whole file, or the bytes of its ranges back to back. Whatever the server does with
    /// `Range`, only wanted bytes are written, in order: fewer only when the file ends
    /// first, the connection drops, or the server leaves out a range (a multi-range
    /// request answered with one range); the caller asks again for the rest. A whole file
    /// of more than `limit` bytes is refused; so are ranges a server answers with the
    /// whole file, unless the request allows that many unwanted bytes. With `etag`, an
    /// unchanged file answers `.notModified` and writes nothing.
    func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse
}

/// A source whose transport calls back when a request ends (URLSession's): the sync
/// engine, which is async, awaits its fetches with no thread waiting on them. The
/// engine runs the blocking fetch of any other source on a thread of its own, so a
/// transport that blocks (libcurl's, a file read) never holds the engine's threads.
/// The two fetches must do the same: the blocking one serves callers that block.
public protocol AsyncCatalogSource: CatalogSource {
    /// What ``CatalogSource/fetch(_:into:)`` does, suspended rather than blocked while
    /// the request is in flight.
    func fetch(_ request: FetchRequest, into sink: FetchSink) async throws -> FetchResponse
}

/// What to fetch of one catalog file.
public struct FetchRequest: Equatable, Sendable {
    public static func == (a: FetchRequest, b: FetchRequest) -> Bool {
        a.path == b.path && a.ranges == b.ranges && a.etag == b.etag && a.limit == b.limit
            && a.ignoredRangeAllowance == b.ignoredRangeAllowance && a.patience == b.patience && a.cancellation === b.cancellation
    }

    /// The catalog-relative path.
    public var path: String
    /// The byte ranges wanted, ascending and not overlapping; none: the whole file.
    public var ranges: [Range<Int64>]
    /// A validator from an earlier answer: only a whole file can be "not modified".
    public var etag: String?
    /// The most bytes a whole file may have.
    public var limit: Int64
    /// How many unwanted bytes (before and between the ranges) may be read from a server
    /// that answers the ranges with the whole file, rather than refusing its answer as
    /// ignoring them: what asking for the bytes another way would cost.
    public var ignoredRangeAllowance: Int64
    /// The longest silence (before the first byte, or between two) after which the fetch
    /// gives up with a network failure, so that another source can serve; nil: the
    /// transport's own (a minute). Transports may round it up to a whole second.
    public var patience: Duration?
    /// The sync's cancellation: a transport stops the request at once when it is
    /// cancelled (registering what stops it with `SyncCancellation.whileRunning(onCancel:_:)`,
    /// blocking or async, or checking it between chunks) and throws `CancellationError`.
    public var cancellation: SyncCancellation?

    /// - Precondition: `ranges` are ascending, not overlapping, none empty or negative.
    package init(
        _ path: String, ranges: [Range<Int64>] = [], etag: String? = nil, limit: Int64 = .max,
        ignoredRangeAllowance: Int64 = 0, patience: Duration? = nil
    ) {
        precondition(
            ranges.allSatisfy { $0.lowerBound >= 0 && !$0.isEmpty }
                && zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound },
            "fetch ranges must be ascending, not overlapping and not empty")
        self.path = path
        self.ranges = ranges
        self.etag = etag
        self.limit = limit
        self.ignoredRangeAllowance = ignoredRangeAllowance
        self.patience = patience
    }

    /// `Range: bytes=a-b,c-d` for the ranges; nil for a whole file.
    package var rangeHeader: String? {
        ranges.isEmpty ? nil : "bytes=" + byteRangeSet(ranges)
    }
}

/// What ``CatalogSource/fetch(_:into:)`` got.
public struct FetchResponse: Equatable, Sendable {
    /// Whether content was written, or the file still has the `etag` given.
    public enum Status: Equatable, Sendable {
        case content
        case notModified
    }

    /// How a server answered a request for ranges.
    public enum RangeAnswer: Equatable, Sendable {
        /// `206` with the bytes of each range in a part of its own (`multipart/byteranges`).
        case multipart
        /// `206` with one range: the one asked for, or one of several (the server answers
        /// one range per request, or joined them).
        case singlePart
        /// `200` with the whole file: the server ignores `Range`.
        case wholeFile
    }

    public let status: Status
    public let etag: String?
    /// Body bytes written to the sink.
    public let written: Int64
    /// Body bytes that crossed the wire, including any skipped because a server ignored `Range`.
    public let received: Int64
    /// For a request with ranges that got content, how the server sent them.
    public let rangeAnswer: RangeAnswer?
    /// From sending the request to the answer's head, over a network: a round trip on a
    /// kept-alive connection, more on a new one. What the client learns its links from.
    public let timeToFirstByte: Duration?

    public init(
        status: Status, etag: String?, written: Int64, received: Int64, rangeAnswer: RangeAnswer? = nil,
        timeToFirstByte: Duration? = nil
    ) {
        self.status = status
        self.etag = etag
        self.written = written
        self.received = received
        self.rangeAnswer = rangeAnswer
        self.timeToFirstByte = timeToFirstByte
    }
}

extension CatalogSource {
    /// The URL of the catalog file `path`, for messages.
    package func location(of path: String) -> String {
        catalogFileURL(url, path)
    }
}

/// The URL of the file `path` of the catalog at `base`, which a user may have typed
/// with a trailing `/`.
package func catalogFileURL(_ base: String, _ path: String) -> String {
    base + (base.hasSuffix("/") ? "" : "/") + path
}

/// The URL to track for a catalog location a user typed: an `http(s)://` or `file://`
/// URL as it is, and a local path (absolute or relative) as the `file://` URL of its
/// absolute form, so that a sync run from another folder still finds the catalog.
package func catalogURL(forLocation location: String) -> String {
    guard !location.isEmpty, !location.contains("://") else { return location }
    return "file://" + URL(fileURLWithPath: location).standardizedFileURL.path
}

/// How the repo spells the catalog an app names by `url`: a file URL as its path is
/// spelled (`catalogURL(forLocation:)`: `file://` and the path, not percent-encoded),
/// any other URL as it is written.
package func catalogLocation(of url: URL) -> String {
    url.isFileURL ? catalogURL(forLocation: url.path) : url.absoluteString
}

/// The folder of a `file://` location as the repo spells it (the path after the
/// scheme, not percent-decoded); nil for any other location.
package func catalogFolder(ofLocation location: String) -> String? {
    location.lowercased().hasPrefix("file://") ? String(location.dropFirst("file://".count)) : nil
}

/// The `URL` of a location the repo spells (`file://` and a path, or a URL); nil when it
/// is no URL.
package func catalogLocationURL(_ location: String) -> URL? {
    catalogFolder(ofLocation: location).map { URL(fileURLWithPath: $0) } ?? URL(string: location)
}

/// The source for a tracked URL: `http(s)://` through libcurl (`HTTPCatalogSource`), or
/// `file://`. The default `SyncOptions.sourceFactory`.
///
/// An iOS build has no libcurl: there an `http(s)://` URL throws a ``SyncError`` with
/// code ``SyncError/Code/invalidRequest`` naming the way out, and an app syncs with the
/// ZincURLSession library's `URLSessionTransport().sourceFactory` instead (`file://`
/// still works).
public func makeCatalogSource(_ url: String) throws(SyncError) -> CatalogSource {
    do {
        #if ZINC_LIBCURL
        return try makeCatalogSource(url, http: HTTPCatalogSource.init)
        #else
        return try makeCatalogSource(url) { url, _ in throw ClientError.noDefaultHTTPTransport(url: url) }
        #endif
    } catch {
        throw SyncError(error)
    }
}

/// Readies the transport of ``makeCatalogSource(_:)`` for a first request: loads libcurl
/// and the libraries it needs (some milliseconds) on a thread of their own, while the
/// caller goes on opening its repo. Optional, and safe at any time; without libcurl
/// (iOS) it does nothing.
package func prepareDefaultTransport() {
    #if ZINC_LIBCURL
    transportLoadStarted.store(true, ordering: .sequentiallyConsistent)
    WorkerThread.start { HTTPClient.load() }
    #endif
}

/// ``prepareDefaultTransport()`` when a catalog `repo` tracks has a source that is not
/// read from disk (`http(s)://`, or another scheme a factory fetches over HTTP): loading
/// libcurl costs about 8 MB of resident memory, which a sync from `file://` catalogs
/// alone never needs. repo.json is read for its sources only; a repo that cannot be
/// read starts nothing, and its sync reports why.
package func prepareDefaultTransport(for repo: Repo) {
    guard let state = try? repo.loadState(),
        state.catalogs.values.contains(where: { $0.urls.contains { !$0.lowercased().hasPrefix("file://") } })
    else { return }
    prepareDefaultTransport()
}

/// Returns once the load ``prepareDefaultTransport()`` started has ended, at once when
/// none was started: a program that may exit before its first request calls it first,
/// since libraries torn down by `exit` while another thread still loads them can crash
/// the process.
package func waitForDefaultTransport() {
    #if ZINC_LIBCURL
    // Loads once: a second call waits for the first.
    if transportLoadStarted.load(ordering: .sequentiallyConsistent) { HTTPClient.load() }
    #endif
}

#if ZINC_LIBCURL
/// Whether ``prepareDefaultTransport()`` started the load, which
/// ``waitForDefaultTransport()`` then waits for (and never starts).
private let transportLoadStarted = Atomic<Bool>(false)
#endif

/// The source for a tracked URL, with `http(s)://` URLs fetched through the transport
/// `http` makes from the URL and its parsed form (`URLSessionTransport` in the
/// ZincURLSession library uses this), and `file://` URLs read from the folder.
package func makeCatalogSource(_ url: String, http: (_ url: String, _ base: URL) throws -> CatalogSource) throws -> CatalogSource {
    let lowered = url.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
        guard let parsed = URL(string: url), parsed.host != nil else { throw ClientError.unsupportedURL(url) }
        return try http(url, parsed)
    }
    if let path = catalogFolder(ofLocation: url) {
        guard !path.isEmpty else { throw ClientError.unsupportedURL(url) }
        return FileCatalogSource(url: url, root: path)
    }
    throw ClientError.unsupportedURL(url)
}
