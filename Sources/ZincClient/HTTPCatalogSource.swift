#if ZINC_LIBCURL
import Zinc
import ZincCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A catalog on any static HTTP host or CDN, fetched with libcurl: the default transport
/// on Linux and macOS (an iOS build has no libcurl, hence no such type: see
/// ``makeCatalogSource(_:)``). Bodies are streamed chunk by chunk into the caller's sink
/// as they arrive, never collected in memory, and `FetchTransfer` checks every promise
/// the server makes (status, Content-Range, Content-Length) against what it sends.
package final class HTTPCatalogSource: CatalogSource, Sendable {
    package let url: String
    private let base: URL
    /// Kept for the source's life, so that fetches reuse the server's connection.
    private let client = HTTPClient()

    init(url: String, base: URL) {
        self.url = url
        self.base = base
    }

    package func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        let location = location(of: request.path)
        let transfer = FetchTransfer(url: location, request: request, sink: sink)
        let headers = transfer.validator.map { ["If-None-Match: \($0)"] } ?? []
        // No Accept-Encoding: catalog files go over the wire as stored, so byte
        // ranges of archives mean what they say.
        var get = HTTPRequest(.get, base.appendingPathComponent(request.path).absoluteString, headers: headers, ranges: request.ranges)
        get.patience = request.patience
        let stop = TransferStop()
        get.stop = stop
        do {
            return try transfer.perform(stop: stop.fire, stopped: { stop.fired }) {
                try client.perform(get, receiver: HTTPReceiver(header: transfer.header, body: transfer.receive))
            }
        } catch let error as CurlError {
            throw ClientError.transport(url: location, reason: error.reason, received: 0)
        }
    }
}
#endif
