import Foundation
import Testing
import Zinc
import ZincClient

/// The codes a sync's failures are sorted into: what an app branches on, and what
/// `sync --json` prints as `error_code`.
@Suite struct SyncErrorTests {
    static let zincErrors: [(ZincError, SyncError.Code)] = [
        (.io(path: "/repo/objects/ab", operation: "write", errno: ENOSPC), .diskFull),
        (.io(path: "/repo/objects/ab", operation: "write", errno: EDQUOT), .diskFull),
        (.io(path: "/repo/objects/ab", operation: "open", errno: ENOENT), .localStorage),
        (.io(path: "/repo/objects/ab", operation: "open", errno: EACCES), .localStorage),
        (.corruptFile(path: "catalog.json", reason: "r"), .invalidCatalog),
        (.unsupportedFormat(path: "catalog.json", format: "2"), .invalidCatalog),
        (.integrity(path: "/c", reason: "r"), .invalidCatalog),
        (.invalidPath("../x", reason: "r"), .invalidCatalog),
        (.signature(path: "catalog.json.sig", reason: "r"), .invalidCatalog),
        (.bundleNotFound("B"), .notFound),
        (.versionNotFound(bundle: "B", version: "9"), .notFound),
        (.distroNotFound(bundle: "B", distro: "qa"), .notFound),
        (.flavorNotFound(bundle: "B", version: 1, flavor: "tv", flavors: []), .notFound),
        (.invalidName(kind: "bundle name", value: "a/b", reason: "r"), .invalidRequest),
        (.invalidVersionSpec("two"), .invalidRequest),
        (.catalogLocked(location: "/c", holders: [], waited: .seconds(1)), .other),
        (.remote(location: "s3://b/c", reason: "r"), .other),
    ]

    @Test(arguments: zincErrors)
    func sortsZincErrors(_ error: ZincError, _ code: SyncError.Code) {
        #expect(SyncError(error).code == code)
        #expect(SyncError(error).httpStatus == nil)
    }

    static let clientErrors: [(ClientError, SyncError.Code)] = [
        (.untrusted(catalog: "c", file: "u", reason: "r"), .untrusted),
        (.rolledBack(catalog: "c", file: "u", reason: "r"), .rolledBack),
        (.integrity(url: "u", reason: "r"), .corruptDownload),
        (.truncated(url: "u", received: 1, expected: 2), .corruptDownload),
        (.badResponse(url: "u", reason: "r"), .corruptDownload),
        (.tooLarge(url: "u", limit: 1), .corruptDownload),
        (.rangeIgnored(url: "u", ranges: "bytes=0-1"), .corruptDownload),
        (.notFound(url: "u"), .notFound),
        (.httpStatus(url: "u", status: 503), .httpStatus),
        (.transport(url: "u", reason: "r", received: 0), .network),
        (.allSourcesFailed(catalog: "c", failures: []), .network),
        (.repoNotFound("/r"), .invalidRequest),
        (.repoExists("/r"), .invalidRequest),
        (.unsupportedURL("gopher://x"), .invalidRequest),
        (.noDefaultHTTPTransport(url: "https://x"), .invalidRequest),
        (.notTracked(catalog: "c", bundle: "B"), .invalidRequest),
    ]

    @Test(arguments: clientErrors)
    func sortsClientErrors(_ error: ClientError, _ code: SyncError.Code) {
        #expect(SyncError(error).code == code)
        #expect(SyncError(error).httpStatus == error.httpStatus)
    }

    /// What an app logs or shows: the message, the URL or local file at fault, and the
    /// error underneath.
    @Test func storesWhatIsAtFault() {
        let busy = SyncError(ClientError.httpStatus(url: "https://cdn/catalog.json", status: 503))
        #expect(busy.message == "https://cdn/catalog.json answered HTTP 503" && "\(busy)" == busy.message)
        #expect(busy.url == URL(string: "https://cdn/catalog.json") && busy.path == nil)
        #expect(busy.cause as? ClientError == .httpStatus(url: "https://cdn/catalog.json", status: 503))
        let missing = SyncError(ClientError.repoNotFound("/r"))
        #expect(missing.path == URL(fileURLWithPath: "/r") && missing.url == nil)
        let full = SyncError(ZincError.io(path: "/repo/objects/ab", operation: "write", errno: ENOSPC))
        #expect(full.path == URL(fileURLWithPath: "/repo/objects/ab"))
        #expect(
            full.message.hasSuffix("(the disk is full: free some space and sync again, which resumes; the version in use is untouched)"))
        #expect(SyncError(ZincError.remote(location: "s3://b/c", reason: "r")).url == URL(string: "s3://b/c"))
        #expect(SyncError(CancellationError()).url == nil && SyncError(CancellationError()).path == nil)
    }
}
