/// Failures of the client that are not local file problems (those are `ZincError`):
/// what a server, the network or the repo's own bookkeeping did wrong. Each names the
/// URL or value at fault, so a log line says which server to distrust. Package: an app
/// sees them as the ``SyncError/cause`` of the ``SyncError`` every public call throws,
/// which sorts them by its own ``SyncError/code``.
///
/// This file is the whole vocabulary: each code's constant sits with the factories that
/// make its failures, and each factory words its message, so adding a failure is adding a
/// factory here (and, for a new code, its constant and its line in `SyncError.classify`).
package struct ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, to branch on.
    package let code: Code

    /// The words ``description`` gives, built once by the factory that made the error.
    package let message: String

    /// The URL of the file or source at fault: what a server was asked for, the URL no
    /// source fetches, the file a catalog served without a valid signature. Nil for a
    /// repo's or a catalog's own failures (no repo there, a bundle not tracked, every
    /// source failed).
    package let url: String?

    /// The repo folder at fault, for ``Code/repoNotFound`` and ``Code/repoExists``.
    package let path: String?

    /// The status a server answered with, for ``Code/httpStatus``.
    package let httpStatus: Int?

    /// What went wrong, in words fit to follow the URL: why a transfer failed, what a
    /// server said of a status, what is wrong with an answer or a signed file.
    package let reason: String?

    /// The body bytes that had arrived when a transfer failed or was cut short.
    package let received: Int64?

    /// The ranges (a `Range` header's value) a server answered with the whole file, for
    /// ``rangeIgnored(url:ranges:)`` only: a source that then stops asking for ranges.
    package let ignoredRanges: String?

    /// What each source said, for ``allSourcesFailed(catalog:failures:)`` only.
    package let sourceFailures: [String]?

    package init(
        _ code: Code, _ message: String, url: String? = nil, path: String? = nil, httpStatus: Int? = nil,
        reason: String? = nil, received: Int64? = nil, ignoredRanges: String? = nil, sourceFailures: [String]? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.path = path
        self.httpStatus = httpStatus
        self.reason = reason
        self.received = received
        self.ignoredRanges = ignoredRanges
        self.sourceFailures = sourceFailures
    }

    package var description: String { message }

    /// What kind of failure: stable snake_case strings, the same as ``SyncError/Code``'s
    /// where they mean the same.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        package var description: String { rawValue }
    }

    /// An answer that says "not now" rather than "not here": a throttled bucket (S3's
    /// 503 SlowDown), a rate limit (429), a CDN whose origin is briefly down. A sync asks
    /// again after a pause when every source answered so.
    var isBusy: Bool {
        guard let httpStatus else { return false }
        return [429, 500, 502, 503, 504].contains(httpStatus)
    }

    /// A file the source does not have: a 404, or the 403 an S3 bucket that does not let
    /// anyone list it answers for a missing key.
    var isMissingFile: Bool {
        code == .notFound || httpStatus == 403 || httpStatus == 404
    }

    /// Failures another source of the same catalog may not have, and that say nothing of
    /// the source's honesty: it is tried last from then on.
    var isSourceUnavailable: Bool {
        (code == .network && sourceFailures == nil) || code == .notFound || code == .httpStatus || ignoredRanges != nil
    }
}

extension Error {
    /// Bytes that arrived but are not what the catalog says (a wrong hash, a cut or
    /// overlong body, a hostile archive): another source may serve them right.
    var isDamage: Bool {
        guard let error = self as? ClientError else { return false }
        return error.code == .corruptDownload && error.ignoredRanges == nil
    }
}

// Each code, then the factories that make its failures, spelled as when ClientError was
// an enum: `throw ClientError.notFound(url:)` and comparisons with `==` read as before.

extension ClientError.Code {
    /// No repo at the folder given: check the path, or create one.
    package static let repoNotFound = Self(rawValue: "repo_not_found")
}

extension ClientError {
    package static func repoNotFound(_ path: String) -> ClientError {
        ClientError(.repoNotFound, "no Zinc repo at '\(path)' (create one with repo_init)", path: path)
    }
}

extension ClientError.Code {
    /// A repo already exists at the folder given: open it instead.
    package static let repoExists = Self(rawValue: "repo_exists")
}

extension ClientError {
    package static func repoExists(_ path: String) -> ClientError {
        ClientError(.repoExists, "a Zinc repo already exists at '\(path)'", path: path)
    }
}

extension ClientError.Code {
    /// No source fetches the URL: give a factory that knows its scheme (ZincS3's for
    /// `s3://`, ZincURLSession's `URLSessionTransport().sourceFactory` for
    /// `http(s)://` in a build without libcurl), or fix the URL.
    package static let unsupportedURL = Self(rawValue: "unsupported_url")
}

extension ClientError {
    /// A URL no source handles: s3:// too needs a factory that knows it (`ZincS3`'s,
    /// which `zinc` uses), since ZincClient alone has no S3.
    package static func unsupportedURL(_ url: String) -> ClientError {
        ClientError(
            .unsupportedURL, "unsupported catalog URL '\(url)': use http://, https://, s3://, file:// or a local path", url: url)
    }

    /// A URL that is not a file's, given for a local folder: a repo's, a seed's.
    package static func notAFolderURL(_ url: String) -> ClientError {
        ClientError(.unsupportedURL, "'\(url)' is no local folder: name a repo or a seed by a file URL", url: url)
    }

    /// An `http(s)://` URL given to the default ``makeCatalogSource(_:)`` in a build
    /// without libcurl (iOS): the app must pass a transport of its own, such as the
    /// ZincURLSession library's `URLSessionTransport().sourceFactory`.
    package static func noDefaultHTTPTransport(url: String) -> ClientError {
        ClientError(
            .unsupportedURL,
            "cannot fetch '\(url)': this build has no libcurl; sync through ZincURLSession's URLSessionTransport().sourceFactory",
            url: url)
    }
}

extension ClientError.Code {
    /// No connection, a cut one, a stalled server, or no source of the catalog that
    /// could serve: retry when the network is back; a cut download resumes.
    package static let network = Self(rawValue: "network")
}

extension ClientError {
    /// The connection failed or was cut; `received` bytes of the body had arrived.
    package static func transport(url: String, reason: String, received: Int64) -> ClientError {
        ClientError(
            .network, "download of \(url) failed after \(received) bytes: \(reason)", url: url, reason: reason, received: received)
    }

    package static func allSourcesFailed(catalog: String, failures: [String]) -> ClientError {
        ClientError(
            .network, "no source of catalog '\(catalog)' could serve it: " + failures.joined(separator: "; "),
            sourceFailures: failures)
    }
}

extension ClientError.Code {
    /// The server has no such file (``ClientError/url``).
    package static let notFound = Self(rawValue: "not_found")
}

extension ClientError {
    package static func notFound(url: String) -> ClientError {
        ClientError(.notFound, "\(url) does not exist", url: url)
    }
}

extension ClientError.Code {
    /// A server answered with an HTTP error status (``ClientError/httpStatus``):
    /// retry later; a 403 or 404 everywhere means the catalog moved.
    package static let httpStatus = Self(rawValue: "http_status")
}

extension ClientError {
    /// `reason`: what the server said of it, where the source knows its form (S3's
    /// error code and message, the bucket's region).
    package static func httpStatus(url: String, status: Int, reason: String? = nil) -> ClientError {
        ClientError(
            .httpStatus, "\(url) answered HTTP \(status)" + (reason.map { ": " + $0 } ?? ""), url: url, httpStatus: status,
            reason: reason)
    }
}

extension ClientError.Code {
    /// Bytes that arrived are not what the catalog says (a hash, a length, a
    /// malformed answer, the whole file for a range): retry later, or from another
    /// source; if it persists, a CDN or proxy is rewriting content.
    package static let corruptDownload = Self(rawValue: "corrupt_download")
}

extension ClientError {
    package static func tooLarge(url: String, limit: Int64) -> ClientError {
        ClientError(.corruptDownload, "\(url) sent more than the \(limit) bytes allowed for it", url: url)
    }

    /// The body ended before the length the response or the manifest promised.
    package static func truncated(url: String, received: Int64, expected: Int64) -> ClientError {
        ClientError(
            .corruptDownload, "\(url) was cut short: \(received) of \(expected) bytes arrived", url: url, received: received)
    }

    /// The server answered a request for `ranges` (a `Range` header's value) with the
    /// whole file, whose unwanted bytes would have cost more than fetching another way.
    package static func rangeIgnored(url: String, ranges: String) -> ClientError {
        ClientError(.corruptDownload, "\(url) answered a request for \(ranges) with the whole file", url: url, ignoredRanges: ranges)
    }

    /// The server answered with something a well-behaved catalog never serves.
    package static func badResponse(url: String, reason: String) -> ClientError {
        ClientError(.corruptDownload, "\(url): \(reason)", url: url, reason: reason)
    }

    /// Content whose SHA-1 (or gzip stream) does not match what the manifest records.
    package static func integrity(url: String, reason: String) -> ClientError {
        ClientError(.corruptDownload, "\(url) is damaged: \(reason)", url: url, reason: reason)
    }
}

extension ClientError.Code {
    /// The bundle is not tracked in the repo: track it first.
    package static let notTracked = Self(rawValue: "not_tracked")
}

extension ClientError {
    package static func notTracked(catalog: String, bundle: String) -> ClientError {
        ClientError(.notTracked, "bundle '\(bundle)' of catalog '\(catalog)' is not tracked")
    }
}

extension ClientError.Code {
    /// A catalog with trusted keys served a file without a valid signature by one
    /// of them: keep what the app has, never fall back to an unsigned source, and
    /// report it.
    package static let untrusted = Self(rawValue: "untrusted")
}

extension ClientError {
    /// A catalog tracked with trusted keys served `file` without a valid signature by one
    /// of them. Nothing of it was used.
    package static func untrusted(catalog: String, file: String, reason: String) -> ClientError {
        ClientError(.untrusted, "catalog '\(catalog)': refused \(file): \(reason)", url: file, reason: reason)
    }
}

extension ClientError.Code {
    /// A validly signed but older (or expired) index: someone replays an old catalog.
    /// Keep what the app has, as for ``untrusted``.
    package static let rolledBack = Self(rawValue: "rolled_back")
}

extension ClientError {
    /// A catalog tracked with trusted keys served a validly signed index older than one
    /// accepted before (a rollback), or whose signature has expired (a frozen catalog: a
    /// mirror or attacker replaying an old index). Nothing of it was used.
    package static func rolledBack(catalog: String, file: String, reason: String) -> ClientError {
        ClientError(.rolledBack, "catalog '\(catalog)': refused \(file): \(reason)", url: file, reason: reason)
    }
}
