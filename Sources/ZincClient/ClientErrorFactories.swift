// The errors as values, spelled as when ClientError was an enum: `throw
// ClientError.notFound(url:)` and comparisons with `==` read as before. Public, since a
// `CatalogSource` of an app's own throws them too.
extension ClientError {
    package static func repoNotFound(_ path: String) -> ClientError {
        ClientError(kind: .repoNotFound(path))
    }

    package static func repoExists(_ path: String) -> ClientError {
        ClientError(kind: .repoExists(path))
    }

    /// A URL no source handles: s3:// too needs a factory that knows it (`ZincS3`'s,
    /// which `zinc` uses), since ZincClient alone has no S3.
    public static func unsupportedURL(_ url: String) -> ClientError {
        ClientError(kind: .unsupportedURL(url))
    }

    /// An `http(s)://` URL given to the default ``makeCatalogSource(_:)`` in a build
    /// without libcurl (iOS): the app must pass a transport of its own, such as the
    /// ZincURLSession library's `URLSessionTransport().sourceFactory`.
    public static func noDefaultHTTPTransport(url: String) -> ClientError {
        ClientError(kind: .noDefaultHTTPTransport(url: url))
    }

    /// The connection failed or was cut; `received` bytes of the body had arrived.
    public static func transport(url: String, reason: String, received: Int64) -> ClientError {
        ClientError(kind: .transport(url: url, reason: reason, received: received))
    }

    public static func notFound(url: String) -> ClientError {
        ClientError(kind: .notFound(url: url))
    }

    public static func httpStatus(url: String, status: Int, reason: String? = nil) -> ClientError {
        ClientError(kind: .httpStatus(url: url, status: status, reason: reason))
    }

    public static func tooLarge(url: String, limit: Int64) -> ClientError {
        ClientError(kind: .tooLarge(url: url, limit: limit))
    }

    /// The body ended before the length the response or the manifest promised.
    public static func truncated(url: String, received: Int64, expected: Int64) -> ClientError {
        ClientError(kind: .truncated(url: url, received: received, expected: expected))
    }

    /// The server answered a request for `ranges` (a `Range` header's value) with the
    /// whole file, whose unwanted bytes would have cost more than fetching another way.
    public static func rangeIgnored(url: String, ranges: String) -> ClientError {
        ClientError(kind: .rangeIgnored(url: url, ranges: ranges))
    }

    /// The server answered with something a well-behaved catalog never serves.
    public static func badResponse(url: String, reason: String) -> ClientError {
        ClientError(kind: .badResponse(url: url, reason: reason))
    }

    /// Content whose SHA-1 (or gzip stream) does not match what the manifest records.
    package static func integrity(url: String, reason: String) -> ClientError {
        ClientError(kind: .integrity(url: url, reason: reason))
    }

    package static func allSourcesFailed(catalog: String, failures: [String]) -> ClientError {
        ClientError(kind: .allSourcesFailed(catalog: catalog, failures: failures))
    }

    package static func notTracked(catalog: String, bundle: String) -> ClientError {
        ClientError(kind: .notTracked(catalog: catalog, bundle: bundle))
    }

    /// A catalog tracked with trusted keys served `file` without a valid signature by one
    /// of them, or an index older than one accepted before (rollback) or whose signature
    /// has expired (freeze). Nothing of it was used.
    package static func untrusted(catalog: String, file: String, reason: String) -> ClientError {
        ClientError(kind: .untrusted(catalog: catalog, file: file, reason: reason))
    }

    /// A catalog tracked with trusted keys served a validly signed index older than one
    /// accepted before (a rollback), or whose signature has expired (a frozen catalog: a
    /// mirror or attacker replaying an old index). Nothing of it was used.
    package static func rolledBack(catalog: String, file: String, reason: String) -> ClientError {
        ClientError(kind: .rolledBack(catalog: catalog, file: file, reason: reason))
    }
}
