import Zinc

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

    /// Writes the bytes `range` of the catalog file `path` (the whole file when nil) to
    /// `sink` at its current offset. Exactly the range's bytes are written, whatever the
    /// server does with `Range` (fewer only when the file ends first). A whole file of
    /// more than `limit` bytes is refused with `ClientError.tooLarge`. With `etag`, an
    /// unchanged file answers `.notModified` and writes nothing.
    func fetch(_ path: String, range: Range<Int64>?, etag: String?, limit: Int64, into sink: PosixFile) throws -> FetchResponse
}

/// What ``CatalogSource/fetch(_:range:etag:limit:into:)`` got.
public struct FetchResponse: Equatable, Sendable {
    /// Whether content was written, or the file still has the `etag` given.
    public enum Status: Equatable, Sendable {
        case content
        case notModified
    }

    public let status: Status
    public let etag: String?
    /// Body bytes written to the sink.
    public let written: Int64
    /// Body bytes that crossed the wire, including any skipped because a server ignored `Range`.
    public let received: Int64

    public init(status: Status, etag: String?, written: Int64, received: Int64) {
        self.status = status
        self.etag = etag
        self.written = written
        self.received = received
    }

    /// The answer to an empty range: nothing to ask a server for.
    package static let nothingWritten = FetchResponse(status: .content, etag: nil, written: 0, received: 0)
}

extension CatalogSource {
    /// The URL of the catalog file `path`, for messages.
    package func location(of path: String) -> String {
        url + (url.hasSuffix("/") ? "" : "/") + path
    }
}

/// The URL to track for a catalog location a user typed: an `http(s)://` or `file://`
/// URL as it is, and a local path (absolute or relative) as the `file://` URL of its
/// absolute form, so that a sync run from another folder still finds the catalog.
public func catalogURL(forLocation location: String) -> String {
    guard !location.isEmpty, !location.contains("://") else { return location }
    return "file://" + URL(fileURLWithPath: location).standardizedFileURL.path
}

/// The source for a tracked URL: `http(s)://` through libcurl (`HTTPCatalogSource`), or
/// `file://`. The default `SyncOptions.sourceFactory`.
///
/// An iOS build has no libcurl: there an `http(s)://` URL throws
/// ``ClientError/noDefaultHTTPTransport(url:)``, and an app syncs with the
/// ZincURLSession library's `URLSessionTransport().sourceFactory` instead (`file://`
/// still works).
public func makeCatalogSource(_ url: String) throws -> CatalogSource {
    #if ZINC_LIBCURL
    try makeCatalogSource(url, http: HTTPCatalogSource.init)
    #else
    try makeCatalogSource(url) { url, _ in throw ClientError.noDefaultHTTPTransport(url: url) }
    #endif
}

/// The source for a tracked URL, with `http(s)://` URLs fetched through the transport
/// `http` makes from the URL and its parsed form (`URLSessionTransport` in the
/// ZincURLSession library uses this), and `file://` URLs read from the folder.
public func makeCatalogSource(_ url: String, http: (_ url: String, _ base: URL) throws -> CatalogSource) throws -> CatalogSource {
    let lowered = url.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
        guard let parsed = URL(string: url), parsed.host != nil else { throw ClientError.unsupportedURL(url) }
        return try http(url, parsed)
    }
    if lowered.hasPrefix("file://") {
        let path = String(url.dropFirst("file://".count))
        guard !path.isEmpty else { throw ClientError.unsupportedURL(url) }
        return FileCatalogSource(url: url, root: path)
    }
    throw ClientError.unsupportedURL(url)
}
