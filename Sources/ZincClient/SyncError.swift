import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one error every throwing call of ZincClient throws (`throws(SyncError)`), in a
/// form an app can branch on: a stable ``code`` (which can gain new values without
/// breaking an app's `switch`, as long as it has a `default`), the ``message`` to log or
/// show, the ``url`` or local ``path`` at fault, the HTTP status where there is one, and
/// the error underneath (``cause``) for logs. See "Handling sync errors" in the
/// ZincClient documentation for what an app should do for each code.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure: stable strings (`sync --json` prints them as `error_code`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// A catalog with trusted keys served something without a valid signature: a
        /// tampered file or mirror. Keep the version the app has; retry later; report it.
        public static let untrusted = Code(rawValue: "untrusted")
        /// A validly signed but older (or expired) index: someone replays an old catalog.
        /// Keep the version the app has; do not fall back to an unsigned source.
        public static let rolledBack = Code(rawValue: "rolled_back")
        /// Bytes that arrived are not what the catalog says (a hash, a length, a
        /// malformed answer), from every source: a broken CDN or a proxy rewriting content.
        public static let corruptDownload = Code(rawValue: "corrupt_download")
        /// The catalog does not have the file, bundle, distribution or version asked for.
        public static let notFound = Code(rawValue: "not_found")
        /// A server answered with an HTTP error status (``SyncError/httpStatus``).
        public static let httpStatus = Code(rawValue: "http_status")
        /// No connection, a cut one, or a server that stalled: retry when the network is back.
        public static let network = Code(rawValue: "network")
        /// The device has no room left: the previous version is still in place; free
        /// space (or ask the user to) and sync again, which resumes.
        public static let diskFull = Code(rawValue: "disk_full")
        /// Another local file problem (permissions, a read-only volume).
        public static let localStorage = Code(rawValue: "local_storage")
        /// The repo's own bookkeeping is damaged (repo.json, a kept manifest):
        /// `zinc repo verify --repair`, or start a fresh repo.
        public static let damagedRepo = Code(rawValue: "damaged_repo")
        /// A catalog file that is not valid Zinc (or a format this client does not read).
        public static let invalidCatalog = Code(rawValue: "invalid_catalog")
        /// What the caller asked cannot be done: no repo there (or one already), a bundle
        /// not tracked, an unsupported URL, an invalid name.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The sync was cancelled; the next one resumes where it stopped.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Anything else; ``SyncError/message`` says what.
        public static let other = Code(rawValue: "other")
    }

    public let code: Code
    /// What went wrong, naming the file, URL or value at fault: the line to log (the
    /// `error` of `sync --json`). A disk-full failure adds what to do about it.
    public let message: String
    /// The URL of the file or source at fault: what a server was asked for, the URL no
    /// source fetches, the file a catalog served without a valid signature.
    public let url: URL?
    /// The local file or folder at fault: the repo that is missing, the file that could
    /// not be written or is damaged.
    public let path: URL?
    /// The status a server answered with, for ``Code/httpStatus``.
    public let httpStatus: Int?
    /// The error underneath, for logs: a failure of the client's, of the format's
    /// (`ZincError`), a `CancellationError`, or what an app's own source threw.
    public let cause: any Error & Sendable

    public var description: String { message }

    /// A failure that a ``CatalogSource`` of the app's own throws, for the sync to treat
    /// as it treats its own transports' failures: ``Code/notFound`` (the source has no
    /// such file: the next source is asked, or the file is taken as absent),
    /// ``Code/httpStatus`` (with `httpStatus`; 429 and 5xx are retried after a pause),
    /// ``Code/network`` (the next source) or ``Code/corruptDownload`` (bytes that are not
    /// what was asked for: the next source). `url` is the file asked for.
    public init(_ code: Code, message: String, url: URL? = nil, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.httpStatus = httpStatus
        path = nil
        cause = ClientError(
            ClientError.Code(rawValue: code.rawValue), message, url: url?.absoluteString, httpStatus: httpStatus)
    }

    /// Classifies `error`; `repo` tells the repo's own files from a catalog's.
    package init(_ error: any Error & Sendable, repo: Repo? = nil) {
        if let already = error as? SyncError {
            self = already
            return
        }
        cause = error
        var status: Int?
        code = Self.classify(error, repo: repo, status: &status)
        httpStatus = status
        message =
            code == .diskFull
            ? "\(error) (the disk is full: free some space and sync again, which resumes; the version in use is untouched)"
            : "\(error)"
        let located = Self.location(of: error)
        url = located.url
        path = located.path
    }

    private static func classify(_ error: any Error, repo: Repo?, status: inout Int?) -> Code {
        if error is CancellationError { return .cancelled }
        if let error = error as? ClientError {
            // The client's codes, but for those of a call the app made wrong.
            switch error.code {
            case .untrusted: return .untrusted
            case .rolledBack: return .rolledBack
            case .corruptDownload: return .corruptDownload
            case .notFound: return .notFound
            case .httpStatus:
                status = error.httpStatus
                return .httpStatus
            case .network: return .network
            default: return .invalidRequest
            }
        }
        guard let error = error as? ZincError else { return .other }
        switch error.code {
        case .io:
            if error.errno == ENOSPC || error.errno == EDQUOT { return .diskFull }
            return isInRepo(error.path, repo) && error.errno == ENOENT ? .damagedRepo : .localStorage
        case .corruptFile, .unsupportedFormat, .integrity:
            return isInRepo(error.path, repo) ? .damagedRepo : .invalidCatalog
        case .invalidPath, .invalidSignature: return .invalidCatalog
        case .bundleNotFound, .versionNotFound, .distroNotFound, .flavorNotFound: return .notFound
        case .invalidName, .invalidVersionSpec: return .invalidRequest
        default: return .other
        }
    }

    /// The URL or local path `error` names: a client failure's URL or repo folder, a
    /// format failure's path (a URL when it is one, a remote catalog's location).
    private static func location(of error: any Error) -> (url: URL?, path: URL?) {
        if let error = error as? ClientError {
            return (error.url.flatMap(catalogLocationURL), error.path.map { URL(fileURLWithPath: $0) })
        }
        guard let named = (error as? ZincError)?.path else { return (nil, nil) }
        return named.contains("://") ? (catalogLocationURL(named), nil) : (nil, URL(fileURLWithPath: named))
    }

    private static func isInRepo(_ path: String?, _ repo: Repo?) -> Bool {
        guard let repo, let path else { return false }
        return path.hasPrefix(repo.root + "/")
    }
}

extension SyncError: Encodable {
    private enum CodingKeys: String, CodingKey {
        case error
        case errorCode = "error_code"
        case httpStatus = "http_status"
    }

    /// `error`, `error_code` and (for an HTTP status) `http_status`: the keys a sync's JSON
    /// reports add to the object of what failed (they encode this into their own encoder).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .error)
        try container.encode(code.rawValue, forKey: .errorCode)
        try container.encodeIfPresent(httpStatus, forKey: .httpStatus)
    }
}
