extension ClientError {
    /// What kind of failure, as an app acts on it: stable snake_case strings, the same
    /// as ``SyncError/Code``'s where they mean the same. New codes may come in later
    /// versions, so a `switch` over them keeps a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// No repo at the folder given: check the path, or create one.
        public static let repoNotFound = Code(rawValue: "repo_not_found")
        /// A repo already exists at the folder given: open it instead.
        public static let repoExists = Code(rawValue: "repo_exists")
        /// No source fetches the URL: give a factory that knows its scheme (ZincS3's for
        /// `s3://`, ZincURLSession's `URLSessionTransport().sourceFactory` for
        /// `http(s)://` in a build without libcurl), or fix the URL.
        public static let unsupportedURL = Code(rawValue: "unsupported_url")
        /// No connection, a cut one, a stalled server, or no source of the catalog that
        /// could serve: retry when the network is back; a cut download resumes.
        public static let network = Code(rawValue: "network")
        /// The server has no such file (``ClientError/url``).
        public static let notFound = Code(rawValue: "not_found")
        /// A server answered with an HTTP error status (``ClientError/httpStatus``):
        /// retry later; a 403 or 404 everywhere means the catalog moved.
        public static let httpStatus = Code(rawValue: "http_status")
        /// Bytes that arrived are not what the catalog says (a hash, a length, a
        /// malformed answer, the whole file for a range): retry later, or from another
        /// source; if it persists, a CDN or proxy is rewriting content.
        public static let corruptDownload = Code(rawValue: "corrupt_download")
        /// The bundle is not tracked in the repo: track it first.
        public static let notTracked = Code(rawValue: "not_tracked")
        /// A catalog with trusted keys served a file without a valid signature by one
        /// of them: keep what the app has, never fall back to an unsigned source, and
        /// report it.
        public static let untrusted = Code(rawValue: "untrusted")
        /// A validly signed but older (or expired) index: someone replays an old catalog.
        /// Keep what the app has, as for ``untrusted``.
        public static let rolledBack = Code(rawValue: "rolled_back")
    }

    /// What kind of failure this is, for an app to branch on.
    public var code: Code {
        switch kind {
        case .repoNotFound: .repoNotFound
        case .repoExists: .repoExists
        case .unsupportedURL, .noDefaultHTTPTransport: .unsupportedURL
        case .transport, .allSourcesFailed: .network
        case .notFound: .notFound
        case .httpStatus: .httpStatus
        case .integrity, .truncated, .badResponse, .tooLarge, .rangeIgnored: .corruptDownload
        case .notTracked: .notTracked
        case .untrusted: .untrusted
        case .rolledBack: .rolledBack
        }
    }
}
