import Testing
import ZincClient

/// The codes are API: an app's `switch` and its logs depend on these strings.
@Suite struct ClientErrorTests {
    static let classified: [(ClientError, String)] = [
        (.repoNotFound("/r"), "repo_not_found"),
        (.repoExists("/r"), "repo_exists"),
        (.unsupportedURL("gopher://x"), "unsupported_url"),
        (.noDefaultHTTPTransport(url: "https://x"), "unsupported_url"),
        (.transport(url: "u", reason: "r", received: 3), "network"),
        (.allSourcesFailed(catalog: "c", failures: ["f"]), "network"),
        (.notFound(url: "u"), "not_found"),
        (.httpStatus(url: "u", status: 503), "http_status"),
        (.tooLarge(url: "u", limit: 1), "corrupt_download"),
        (.truncated(url: "u", received: 1, expected: 2), "corrupt_download"),
        (.rangeIgnored(url: "u", ranges: "bytes=0-1"), "corrupt_download"),
        (.badResponse(url: "u", reason: "r"), "corrupt_download"),
        (.integrity(url: "u", reason: "r"), "corrupt_download"),
        (.notTracked(catalog: "c", bundle: "B"), "not_tracked"),
        (.untrusted(catalog: "c", file: "u", reason: "r"), "untrusted"),
        (.rolledBack(catalog: "c", file: "u", reason: "r"), "rolled_back"),
    ]

    @Test(arguments: classified)
    func classifies(_ error: ClientError, _ code: String) {
        #expect(error.code == ClientError.Code(rawValue: code))
        #expect(error.httpStatus == nil || error.code == .httpStatus)
    }

    @Test func namesWhatIsAtFault() {
        let busy = ClientError.httpStatus(url: "https://cdn/catalog.json", status: 503)
        #expect(busy.url == "https://cdn/catalog.json" && busy.httpStatus == 503)
        let unsigned = ClientError.untrusted(catalog: "c", file: "https://cdn/catalog.json.sig", reason: "r")
        #expect(unsigned.url == "https://cdn/catalog.json.sig")
        #expect(ClientError.noDefaultHTTPTransport(url: "https://x").url == "https://x")
        #expect(ClientError.repoNotFound("/r").url == nil && ClientError.notTracked(catalog: "c", bundle: "B").url == nil)
        #expect(ClientError.notFound(url: "u").httpStatus == nil)
    }
}
