import Testing
import ZincClient
import ZincURLSession

/// The client's HTTP transports: every suite that talks to a server runs once per case,
/// so both honour `CatalogSource.fetch` alike. A build without libcurl (iOS's, which
/// `make portable-check` reproduces) has URLSession's alone.
enum ClientTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    #if ZINC_LIBCURL
    case libcurl
    #endif
    case urlSession

    /// The transport of a test that is not about transports: the default one.
    static let standard = allCases[0]

    /// One URLSession transport for the whole run, as an app would keep one.
    private static let urlSessionTransport = URLSessionTransport()

    var sourceFactory: @Sendable (String) throws -> CatalogSource {
        switch self {
        #if ZINC_LIBCURL
        case .libcurl: return makeCatalogSource
        #endif
        case .urlSession: return Self.urlSessionTransport.sourceFactory
        }
    }

    var testDescription: String { rawValue }
}
