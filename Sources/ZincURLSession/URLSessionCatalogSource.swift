import Foundation
import Zinc
import ZincClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A catalog on a static HTTP host or CDN, fetched through a `URLSessionTransport`. It
/// honours `CatalogSource.fetch` exactly as the libcurl transport does, since both hand
/// the response to `FetchTransfer`: bodies go to the sink chunk by chunk as they arrive.
final class URLSessionCatalogSource: AsyncCatalogSource {
    let url: String
    private let base: URL
    private let transport: URLSessionTransport

    init(url: String, base: URL, transport: URLSessionTransport) {
        self.url = url
        self.base = base
        self.transport = transport
    }

    func fetch(_ fetch: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        let (request, transfer) = exchange(fetch, into: sink)
        try transport.perform(request, into: transfer, cancellation: fetch.cancellation)
        return try transfer.outcome()
    }

    /// The sync engine's fetch: no thread waits while the request is in flight.
    func fetch(_ fetch: FetchRequest, into sink: FetchSink) async throws -> FetchResponse {
        let (request, transfer) = exchange(fetch, into: sink)
        try await transport.perform(request, into: transfer, cancellation: fetch.cancellation)
        return try transfer.outcome()
    }

    /// The request for `fetch`, and the transfer that takes its answer.
    private func exchange(_ fetch: FetchRequest, into sink: FetchSink) -> (URLRequest, FetchTransfer) {
        let transfer = FetchTransfer(url: location(of: fetch.path), request: fetch, sink: sink)
        var request = URLRequest(url: base.appendingPathComponent(fetch.path))
        // Catalog files go over the wire as stored, so byte ranges of archives mean what they say.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(transfer.rangeHeader, forHTTPHeaderField: "Range")
        request.setValue(transfer.validator, forHTTPHeaderField: "If-None-Match")
        if let patience = fetch.patience {
            // The request's idle timeout: how long it may wait for the next byte.
            request.timeoutInterval = max(1, patience.inSeconds)
        }
        return (request, transfer)
    }
}
