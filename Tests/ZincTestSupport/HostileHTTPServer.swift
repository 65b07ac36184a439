import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on loopback, one connection at a time, that answers with
/// whatever bytes a test crafts: wrong content, short bodies, lying headers. By default
/// it serves the files of a folder honestly (with `Range` and `ETag`), so a test
/// overrides only the paths it wants to corrupt, or plays a real host's way with ranges
/// (`RangeHost`). It closes each connection after one answer (saying so in a
/// `Connection: close` field), or with `keepAlive` serves the requests a connection
/// carries until the client closes it, each connection on a thread of its own.
public final class HostileHTTPServer: @unchecked Sendable {
    /// How real hosts answer `Range` (docs/CLIENT.md, "Hosts and ranges"): each case
    /// answers a request for one range as asked, but for `ignoresRange`.
    public enum RangeHost: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Several ranges in one `multipart/byteranges` answer: nginx, `zinc serve`.
        case multipart
        /// Several ranges answered with the whole file, 200: S3, R2.
        case wholeFileToSeveral
        /// Several ranges answered 400: GCS.
        case badRequestToSeveral
        /// Several ranges answered 416: Varnish.
        case unsatisfiableToSeveral
        /// Several ranges, or a suffix range, answered 501: Fastly's segmented caching.
        case notImplementedToSeveral
        /// Several ranges answered with the first of them alone, 206: some S3 edges.
        case firstPartOnly
        /// Several ranges in one answer, the connection closed after every answer: Akamai.
        case closesEveryConnection
        /// `Range` ignored, the whole file to every request: a simple static server, a
        /// CDN that strips the field.
        case ignoresRange

        /// Whether the host keeps a connection for the next request.
        public var keepsConnections: Bool { self != .closesEveryConnection }

        public var description: String { rawValue }
    }

    public struct Request: Sendable {
        public let path: String
        public let headers: [String: String]
        public var range: String? { headers["range"] }
    }

    /// Raw response bytes: status line, headers, body, exactly as sent.
    public typealias Handler = @Sendable (Request) -> [UInt8]?

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)/" }
    private let listener: Int32
    private let lock = NSLock()
    private var handlers = [String: Handler]()
    /// Paths whose answer stops after so many bytes, the connection then left open.
    private var stalls = [String: Int]()
    /// Paths whose answer is sent a slice at a time over so many seconds (a slow link).
    private var drips = [String: Double]()
    private var log = [Request]()
    private var accepted = 0
    private let root: String?
    private let keepAlive: Bool
    private let rangeHost: RangeHost

    /// - Parameters:
    ///   - root: a folder served honestly for paths without a handler.
    ///   - keepAlive: whether a connection stays open for the client's next request.
    ///   - rangeHost: how the folder's files are served to requests with `Range`.
    public init(serving root: String? = nil, keepAlive: Bool = false, rangeHost: RangeHost = .multipart) throws {
        self.root = root
        self.keepAlive = keepAlive
        self.rangeHost = rangeHost
        (listener, port) = try LoopbackSocket.listening(backlog: 16)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Answers `path` (without the leading `/`) with the handler's bytes; nil falls back to the folder.
    public func override(_ path: String, _ handler: @escaping Handler) {
        lock.withLock { handlers[path] = handler }
    }

    /// Sends the first `bytes` bytes of `path`'s answer, then nothing until the client
    /// goes (a download stalled mid-body); nil stops stalling.
    public func stall(_ path: String, after bytes: Int?) {
        lock.withLock { stalls[path] = bytes }
    }

    /// Sends `path`'s answer in 50 slices spread over `seconds` (a slow link); nil sends it at once.
    public func drip(_ path: String, over seconds: Double?) {
        lock.withLock { drips[path] = seconds }
    }

    /// Every request received so far.
    public var requests: [Request] { lock.withLock { log } }

    /// How many connections clients opened so far.
    public var connections: Int { lock.withLock { accepted } }

    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            lock.withLock { accepted += 1 }
            guard keepAlive else {
                _ = handle(connection)
                close(connection)
                continue
            }
            // A client's parallel connections are served at once, and one it keeps idle
            // goes after a while.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread { [self] in
                while handle(connection) {}
                close(connection)
            }.start()
        }
    }

    /// Answers one request; false when the connection ended before or during the answer.
    private func handle(_ connection: Int32) -> Bool {
        var head = [UInt8]()
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(connection, &byte, 1) == 1 else { return false }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
        let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers = [String: String]()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(path: String(target.dropFirst()), headers: headers)
        let (handler, stall, drip) = lock.withLock { () -> (Handler?, Int?, Double?) in
            log.append(request)
            return (handlers[request.path], stalls[request.path], drips[request.path])
        }
        var response = handler?(request) ?? honest(request)
        if !keepAlive, let lineEnd = Self.firstLineEnd(response) {
            response.insert(contentsOf: Array("Connection: close\r\n".utf8), at: lineEnd)
        }
        if let stall { response = Array(response.prefix(stall)) }
        defer { if stall != nil { Self.waitUntilClosed(connection) } }
        guard let drip else { return LoopbackSocket.sendAll(response, on: connection) && stall == nil }
        let slices = 50
        let slice = (response.count + slices - 1) / slices
        for start in stride(from: 0, to: response.count, by: max(1, slice)) {
            guard LoopbackSocket.sendAll(Array(response[start..<min(response.count, start + slice)]), on: connection) else { return false }
            usleep(UInt32(drip / Double(slices) * 1_000_000))
        }
        return stall == nil
    }

    /// Where the status line's successor starts: past its CRLF.
    private static func firstLineEnd(_ response: [UInt8]) -> Int? {
        guard let cr = response.indices.dropLast().first(where: { response[$0] == 13 && response[$0 + 1] == 10 }) else { return nil }
        return cr + 2
    }

    /// Returns once the client has closed `connection` (or after a minute).
    private static func waitUntilClosed(_ connection: Int32) {
        var byte: UInt8 = 0
        for _ in 0..<1200 {
            let n = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return }
            usleep(50_000)
        }
    }

    private func honest(_ request: Request) -> [UInt8] {
        guard let root, let data = FileManager.default.contents(atPath: root + "/" + request.path) else {
            return Self.response(status: "404 Not Found", body: [])
        }
        return Self.serve(Array(data), for: request, as: rangeHost)
    }

    /// `body` as a well-behaved server sends it: honouring `Range` and `If-None-Match`.
    /// Several ranges get a `multipart/byteranges` answer, or what `host` answers them with.
    public static func serve(_ body: [UInt8], for request: Request, as host: RangeHost = .multipart) -> [UInt8] {
        let etag = "\"\(body.count)-\(body.reduce(0) { $0 &* 31 &+ Int($1) })\""
        if request.headers["if-none-match"] == etag {
            return response(status: "304 Not Modified", headers: ["ETag": etag], body: [])
        }
        guard let range = request.range, range.hasPrefix("bytes="), host != .ignoresRange else {
            return response(status: "200 OK", headers: ["ETag": etag], body: body)
        }
        let several = range.contains(",")
        switch host {
        case .wholeFileToSeveral where several: return response(status: "200 OK", headers: ["ETag": etag], body: body)
        case .badRequestToSeveral where several: return response(status: "400 Bad Request", body: [])
        case .unsatisfiableToSeveral where several: return response(status: "416 Range Not Satisfiable", body: [])
        case .notImplementedToSeveral where several || range.hasPrefix("bytes=-"):
            return response(status: "501 Not Implemented", body: [])
        default: break
        }
        let ranges = range.dropFirst(6).split(separator: ",").compactMap { spec -> ClosedRange<Int>? in
            let bounds = spec.split(separator: "-", omittingEmptySubsequences: false)
            let start = Int(bounds[0]) ?? 0
            let end = min(bounds.count > 1 ? Int(bounds[1]) ?? body.count - 1 : body.count - 1, body.count - 1)
            return start <= end ? start...end : nil
        }
        guard let first = ranges.first else { return response(status: "416 Range Not Satisfiable", body: []) }
        guard host != .firstPartOnly, ranges.count > 1 else {
            return response(
                status: "206 Partial Content",
                headers: ["Content-Range": "bytes \(first.lowerBound)-\(first.upperBound)/\(body.count)", "ETag": etag],
                body: Array(body[first]))
        }
        let parts = ranges.map { range in
            (
                head: "--zzz\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Range: bytes \(range.lowerBound)-\(range.upperBound)/\(body.count)\r\n\r\n", bytes: body[range]
            )
        }
        return response(
            status: "206 Partial Content",
            headers: ["Content-Type": "multipart/byteranges; boundary=zzz", "ETag": etag],
            body: Self.multipartBody(parts))
    }

    /// A `multipart/byteranges` body with boundary `zzz`: each part's delimiter line and
    /// fields as given, then its bytes.
    public static func multipartBody(_ parts: [(head: String, bytes: ArraySlice<UInt8>)]) -> [UInt8] {
        var out = [UInt8]()
        for part in parts {
            out += Array(part.head.utf8) + part.bytes + Array("\r\n".utf8)
        }
        return out + Array("--zzz--\r\n".utf8)
    }

    /// A response with `Content-Length` set to `length` (the body's own unless a test lies).
    public static func response(status: String, headers: [String: String] = [:], body: [UInt8], length: Int? = nil) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\nContent-Length: \(length ?? body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
