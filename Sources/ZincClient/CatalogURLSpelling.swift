#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The form shared by the spellings of one catalog URL that reach the same files, so that
/// `track`, `Repo.seed` and `untrack` know a catalog whichever of them a user typed:
/// the scheme's case; for `http(s)://`, the host's case, the default port (80, 443) and
/// trailing `/`s of the path (a query or fragment keeps the rest as typed); for
/// `file://`, the path as `catalogURL(forLocation:)` makes it (`.`, `..`, repeated and
/// trailing `/` folded); for `s3://`, trailing `/`s, which `S3Address` ignores. Anything
/// that may name other files (the path's case, percent-escapes, the user part, another
/// scheme) is kept as typed. Only for comparing: a repo keeps the spelling it was given
/// first, which its validators (`etags`) and requests use.
package func comparableCatalogURL(_ url: String) -> String {
    guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
    let scheme = url[..<colon].lowercased()
    let rest = url[url.index(colon, offsetBy: 3)...]
    switch scheme {
    case "file":
        guard rest.hasPrefix("/") else { return "file://" + rest }
        return "file://" + URL(fileURLWithPath: String(rest)).standardizedFileURL.path
    case "s3":
        return "s3://" + withoutTrailingSlashes(rest)
    case "http", "https":
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<end]
        let tail = rest[end...]
        var user: Substring = ""
        var host = authority
        if let at = authority.lastIndex(of: "@") {
            user = authority[...at]
            host = authority[authority.index(after: at)...]
        }
        var comparableHost = host.lowercased()
        let defaultPort = scheme == "http" ? ":80" : ":443"
        for port in [defaultPort, ":"] where comparableHost.hasSuffix(port) { comparableHost.removeLast(port.count) }
        let path = tail.contains { $0 == "?" || $0 == "#" } ? tail : withoutTrailingSlashes(tail)
        return scheme + "://" + user + comparableHost + path
    default:
        return url
    }
}

private func withoutTrailingSlashes(_ text: Substring) -> Substring {
    var text = text
    while text.hasSuffix("/") { text.removeLast() }
    return text
}

extension RepoState.CatalogSources {
    /// The spelling this catalog's sources hold of `url`, if any.
    func spelling(of url: String) -> String? {
        let comparable = comparableCatalogURL(url)
        return urls.first { comparableCatalogURL($0) == comparable }
    }

    /// Adds `url` as the last source unless a spelling of it is there, and returns the
    /// spelling kept. Further spellings of it (which a zinc before this one added) are
    /// folded into the first, with their validators: they are one source tried twice.
    @discardableResult
    mutating func add(_ url: String) -> String {
        guard let kept = spelling(of: url) else {
            urls.append(url)
            return url
        }
        let comparable = comparableCatalogURL(url)
        for other in urls where other != kept && comparableCatalogURL(other) == comparable {
            etags[other] = nil
            signatureETags[other] = nil
        }
        urls.removeAll { $0 != kept && comparableCatalogURL($0) == comparable }
        return kept
    }
}
