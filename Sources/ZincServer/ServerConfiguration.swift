#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `CatalogHTTPServer` serves and where.
public struct ServerConfiguration: Sendable {
    public enum Mode: Sendable, Equatable {
        /// `root` is one catalog, served at `/`.
        case singleCatalog
        /// Every catalog folder directly below `root` is served at `/<folder>/`.
        case catalogRoot
    }

    public var root: URL
    public var mode: Mode
    /// In `.singleCatalog` mode, the catalog's id, under which it is served at `/<id>/` as
    /// well as at `/`: JavaZinc and the Python tool are given a base URL and append the
    /// catalog's id to it (`<base>/<id>/catalog.json.gz`). Nil serves it at `/` only.
    public var catalogID: String?
    public var host: String
    /// 0 picks a free port; `CatalogHTTPServer.start()` returns the one bound.
    public var port: Int
    /// A connection that sends nothing while idle, or accepts no bytes while a response is
    /// pending, is closed after this long, so stalled clients cannot pin connections forever.
    public var idleTimeout: Duration
    /// How long shutdown waits for responses in flight before closing their connections.
    public var shutdownGracePeriod: Duration
    /// Receives one Common Log Format line per request, on an event loop thread; it should be
    /// quick and thread-safe (the CLI writes to stderr).
    public var accessLog: @Sendable (String) -> Void
    /// Answers the requests under its prefix instead of the files (the catalog browser).
    public var routes: (any DynamicRoutes)?

    public init(
        root: URL,
        mode: Mode = .singleCatalog,
        catalogID: String? = nil,
        host: String = "127.0.0.1",
        port: Int = 8080,
        idleTimeout: Duration = .seconds(60),
        shutdownGracePeriod: Duration = .seconds(30),
        accessLog: @escaping @Sendable (String) -> Void = { _ in },
        routes: (any DynamicRoutes)? = nil
    ) {
        self.root = root
        self.mode = mode
        self.catalogID = catalogID
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
        self.accessLog = accessLog
        self.routes = routes
    }
}
