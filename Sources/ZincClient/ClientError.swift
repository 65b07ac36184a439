/// Failures of the client that are not local file problems (those are `ZincError`):
/// what a server, the network or the repo's own bookkeeping did wrong. Each case names
/// the URL or value at fault, so a log line says which server to distrust.
public enum ClientError: Error, Equatable, Sendable {
    case repoNotFound(String)
    case repoExists(String)
    /// A URL no source handles: s3:// too needs a factory that knows it (`ZincS3`'s,
    /// which `zinc` uses), since ZincClient alone has no S3.
    case unsupportedURL(String)
    /// An `http(s)://` URL given to the default ``makeCatalogSource(_:)`` in a build
    /// without libcurl (iOS): the app must pass a transport of its own, such as the
    /// ZincURLSession library's `URLSessionTransport().sourceFactory`.
    case noDefaultHTTPTransport(url: String)
    /// The connection failed or was cut; `received` bytes of the body had arrived.
    case transport(url: String, reason: String, received: Int64)
    case notFound(url: String)
    /// `reason`: what the server said of it, where it says so in a form the source knows
    /// (S3's error code and message, the bucket's region).
    case httpStatus(url: String, status: Int, reason: String? = nil)
    case tooLarge(url: String, limit: Int64)
    /// The body ended before the length the response or the manifest promised.
    case truncated(url: String, received: Int64, expected: Int64)
    /// The server answered a request for `ranges` (a `Range` header's value) with the
    /// whole file, whose unwanted bytes would have cost more than fetching another way.
    case rangeIgnored(url: String, ranges: String)
    /// The server answered with something a well-behaved catalog never serves.
    case badResponse(url: String, reason: String)
    /// Content whose SHA-1 (or gzip stream) does not match what the manifest records.
    case integrity(url: String, reason: String)
    case allSourcesFailed(catalog: String, failures: [String])
    case notTracked(catalog: String, bundle: String)
    /// A catalog tracked with trusted keys served `file` without a valid signature by one
    /// of them, or an index older than one accepted before (rollback) or whose signature
    /// has expired (freeze). Nothing of it was used.
    case untrusted(catalog: String, file: String, reason: String)
    /// A catalog tracked with trusted keys served a validly signed index older than one
    /// accepted before (a rollback), or whose signature has expired (a frozen catalog: a
    /// mirror or attacker replaying an old index). Nothing of it was used.
    case rolledBack(catalog: String, file: String, reason: String)
}

extension ClientError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .repoNotFound(let path):
            return "no Zinc repo at '\(path)' (create one with repo_init)"
        case .repoExists(let path):
            return "a Zinc repo already exists at '\(path)'"
        case .unsupportedURL(let url):
            return "unsupported catalog URL '\(url)': use http://, https://, s3://, file:// or a local path"
        case .noDefaultHTTPTransport(let url):
            return "cannot fetch '\(url)': this build has no libcurl; sync through ZincURLSession's URLSessionTransport().sourceFactory"
        case .transport(let url, let reason, let received):
            return "download of \(url) failed after \(received) bytes: \(reason)"
        case .notFound(let url):
            return "\(url) does not exist"
        case .httpStatus(let url, let status, let reason?):
            return "\(url) answered HTTP \(status): \(reason)"
        case .httpStatus(let url, let status, nil):
            return "\(url) answered HTTP \(status)"
        case .tooLarge(let url, let limit):
            return "\(url) sent more than the \(limit) bytes allowed for it"
        case .truncated(let url, let received, let expected):
            return "\(url) was cut short: \(received) of \(expected) bytes arrived"
        case .rangeIgnored(let url, let ranges):
            return "\(url) answered a request for \(ranges) with the whole file"
        case .badResponse(let url, let reason):
            return "\(url): \(reason)"
        case .integrity(let url, let reason):
            return "\(url) is damaged: \(reason)"
        case .allSourcesFailed(let catalog, let failures):
            return "no source of catalog '\(catalog)' could serve it: " + failures.joined(separator: "; ")
        case .notTracked(let catalog, let bundle):
            return "bundle '\(bundle)' of catalog '\(catalog)' is not tracked"
        case .untrusted(let catalog, let file, let reason), .rolledBack(let catalog, let file, let reason):
            return "catalog '\(catalog)': refused \(file): \(reason)"
        }
    }

    /// An answer that says "not now" rather than "not here": a throttled bucket (S3's
    /// 503 SlowDown), a rate limit (429), a CDN whose origin is briefly down. A sync asks
    /// again after a pause when every source answered so.
    var isBusy: Bool {
        guard case .httpStatus(_, let status, _) = self else { return false }
        return [429, 500, 502, 503, 504].contains(status)
    }

    /// Failures another source of the same catalog may not have, and that say nothing of
    /// the source's honesty: it is tried last from then on.
    var isSourceUnavailable: Bool {
        switch self {
        case .transport, .notFound, .httpStatus, .rangeIgnored: return true
        default: return false
        }
    }
}

extension Error {
    /// Bytes that arrived but are not what the catalog says (a wrong hash, a cut or
    /// overlong body, a hostile archive): another source may serve them right.
    var isDamage: Bool {
        switch self as? ClientError {
        case .integrity, .truncated, .badResponse, .tooLarge: true
        default: false
        }
    }
}
