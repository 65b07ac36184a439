/// Requests under one first path segment answered by code rather than by files (the
/// catalog browser at `/~zinc/`). The server stays ignorant of catalogs: it hands the
/// decoded path and query over and sends back what it gets, streaming bodies chunk by
/// chunk. The prefix should be a name no served file can have: catalog ids and files
/// never start with `~`.
public protocol DynamicRoutes: Sendable {
    /// The first path segment routed here, such as `~zinc`.
    var prefix: String { get }
    /// Answers a GET or HEAD. It may block (it reads files): the server calls it on its
    /// file I/O thread pool, never on an event loop.
    func respond(to request: DynamicRequest) -> DynamicResponse
}

/// A request for a dynamic route, decoded.
public struct DynamicRequest: Sendable, Equatable {
    /// The path's segments after the prefix, percent-decoded, empty ones dropped: `/~zinc/a/`
    /// is `["a"]`. Unvalidated beyond valid UTF-8: the route must check them.
    public let segments: [String]
    /// The query's parameters, percent-decoded (`+` is a space); the first of a repeated name wins.
    public let query: [String: String]

    public init(segments: [String], query: [String: String] = [:]) {
        self.segments = segments
        self.query = query
    }

    /// The request for `target` when its first segment is `prefix`; nil when the target is
    /// not routed there. Broken percent-encoding or invalid UTF-8 throws `.malformed`.
    init?(target: String, prefix: String) throws(RequestPath.Rejection) {
        guard target.hasPrefix("/") else { return nil }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        let raw = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // Anything else, malformed or not, is the static files' to judge as before.
        guard let first = raw.first, (try? RequestPath.percentDecoded(first)) == Array(prefix.utf8) else { return nil }
        var segments = [String]()
        for segment in raw.dropFirst() where !segment.isEmpty { segments.append(try Self.decoded(segment)) }
        var query = [String: String]()
        if let mark = target.firstIndex(of: "?") {
            let text = target[target.index(after: mark)...].prefix { $0 != "#" }
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = try Self.decoded(parts[0], plusIsSpace: true)
                let value = parts.count > 1 ? try Self.decoded(parts[1], plusIsSpace: true) : ""
                if query[name] == nil { query[name] = value }
            }
        }
        self.init(segments: segments, query: query)
    }

    private static func decoded(_ text: Substring, plusIsSpace: Bool = false) throws(RequestPath.Rejection) -> String {
        let spaced = plusIsSpace ? Substring(text.replacing("+", with: " ")) : text
        let bytes = try RequestPath.percentDecoded(spaced)
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .malformed }
        return string
    }
}

/// The answer of a dynamic route.
public struct DynamicResponse: Sendable {
    public enum Body: Sendable {
        case text(String)
        /// Sent chunk by chunk as the client takes them, without a Content-Length.
        case stream(any DynamicBodyStream)
    }

    /// An HTTP status code.
    public var status: Int
    /// Content-Type and any other headers; Content-Length is added for text bodies.
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A body produced piece by piece (a file decompressed as it is sent). Called on the
/// file I/O pool, one call at a time.
public protocol DynamicBodyStream: AnyObject, Sendable {
    /// The next bytes, or nil at the end. Throwing cuts the response short: the
    /// connection is closed, so the client sees an incomplete body, not a complete wrong one.
    func next() throws -> [UInt8]?
    /// Releases what the stream holds; called once, whether or not it reached its end.
    func close()
}
