import Foundation
import Testing
import ZincCurl
import ZincTestSupport

/// The test server itself: a private instance answers, and is gone once stopped, so no
/// server outlives the tests that started it.
@Suite struct MotoServerTests {
    @Test func aPrivateServerStopsWhenReleased() throws {
        let http = HTTPClient()
        var server: MotoServer? = try MotoServer()
        let endpoint = try #require(server).endpoint
        let bucket = try #require(server).makeBucket()
        let listing = try http.collect(HTTPRequest(.get, endpoint + "/"), limit: 1 << 20)
        #expect(listing.failure == nil && listing.head.status == 200)
        #expect(String(decoding: listing.body, as: UTF8.self).contains("<Name>\(bucket)</Name>"))
        server = nil
        let after = try http.collect(HTTPRequest(.get, endpoint + "/"), limit: 1 << 20)
        #expect(after.failure != nil, "the server still answers after its release")
    }
}
