import Testing
import ZincClient
import ZincURLSession

/// The client's HTTP transports: every suite that talks to a server runs once per case,
/// so both honour `CatalogSource.fetch` alike.
enum ClientTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case libcurl
    case urlSession

    /// One URLSession transport for the whole run, as an app would keep one.
    private static let urlSessionTransport = URLSessionTransport()

    var sourceFactory: @Sendable (String) throws -> CatalogSource {
        switch self {
        case .libcurl: return makeCatalogSource
        case .urlSession: return Self.urlSessionTransport.sourceFactory
        }
    }

    var testDescription: String { rawValue }
}
