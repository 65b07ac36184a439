import Foundation
import Zinc
import ZincClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A catalog on a static HTTP host or CDN, fetched through a `URLSessionTransport`. It
/// honours `CatalogSource.fetch` exactly as the libcurl transport does, since both hand
/// the response to `FetchTransfer`: bodies go to the sink chunk by chunk as they arrive.
final class URLSessionCatalogSource: CatalogSource {
    let url: String
    private let base: URL
    private let transport: URLSessionTransport

    init(url: String, base: URL, transport: URLSessionTransport) {
        self.url = url
        self.base = base
        self.transport = transport
    }

    func fetch(_ path: String, range: Range<Int64>?, etag: String?, limit: Int64, into sink: PosixFile) throws -> FetchResponse {
        if let range, range.isEmpty { return .nothingWritten }
        let transfer = FetchTransfer(url: location(of: path), range: range, etag: etag, limit: limit, sink: sink)
        var request = URLRequest(url: base.appendingPathComponent(path))
        // Catalog files go over the wire as stored, so byte ranges of archives mean what they say.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(transfer.rangeHeader, forHTTPHeaderField: "Range")
        request.setValue(transfer.validator, forHTTPHeaderField: "If-None-Match")
        transport.perform(request, into: transfer)
        return try transfer.outcome()
    }
}
