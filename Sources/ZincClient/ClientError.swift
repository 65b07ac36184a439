/// Failures of the client that are not local file problems (those are `ZincError`):
/// what a server, the network or the repo's own bookkeeping did wrong. Each names the
/// URL or value at fault, so a log line says which server to distrust. An app branches
/// on ``code``, which can gain values without breaking its `switch` (as long as it has
/// a `default`); a sync's failures come sorted further as a ``SyncError``.
public struct ClientError: Error, Equatable, Sendable {
    package let kind: Kind

    /// The URL of the file or source at fault: what a server was asked for, the URL no
    /// source fetches, the file a catalog served without a valid signature. Nil for a
    /// repo's or a catalog's own failures (no repo there, a bundle not tracked, every
    /// source failed).
    public var url: String? {
        switch kind {
        case .unsupportedURL(let url), .noDefaultHTTPTransport(let url), .transport(let url, _, _), .notFound(let url),
            .httpStatus(let url, _, _), .tooLarge(let url, _), .truncated(let url, _, _), .rangeIgnored(let url, _),
            .badResponse(let url, _), .integrity(let url, _), .untrusted(_, let url, _), .rolledBack(_, let url, _):
            return url
        case .repoNotFound, .repoExists, .allSourcesFailed, .notTracked:
            return nil
        }
    }

    /// The status a server answered with, for ``Code/httpStatus``.
    public var httpStatus: Int? {
        guard case .httpStatus(_, let status, _) = kind else { return nil }
        return status
    }
}

extension ClientError: CustomStringConvertible {
    public var description: String {
        switch kind {
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
        guard let httpStatus else { return false }
        return [429, 500, 502, 503, 504].contains(httpStatus)
    }

    /// A file the source does not have: a 404, or the 403 an S3 bucket that does not let
    /// anyone list it answers for a missing key.
    var isMissingFile: Bool {
        switch kind {
        case .notFound: true
        case .httpStatus(_, let status, _): status == 403 || status == 404
        default: false
        }
    }

    /// Failures another source of the same catalog may not have, and that say nothing of
    /// the source's honesty: it is tried last from then on.
    var isSourceUnavailable: Bool {
        switch kind {
        case .transport, .notFound, .httpStatus, .rangeIgnored: return true
        default: return false
        }
    }
}

extension Error {
    /// Bytes that arrived but are not what the catalog says (a wrong hash, a cut or
    /// overlong body, a hostile archive): another source may serve them right.
    var isDamage: Bool {
        switch (self as? ClientError)?.kind {
        case .integrity, .truncated, .badResponse, .tooLarge: true
        default: false
        }
    }
}
