import Foundation
import Testing

@testable import ZincServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Fixture catalogs

/// A catalog tree in a fresh temporary folder, laid out as FORMAT.md describes, plus the
/// things a server must never hand out: a secret file next to the catalog, a lock file,
/// temporary files and symlinks that lead out.
struct CatalogFixture: Sendable {
    static let objectSHA = "2e75c8e57ab9ed44cd8f0f8666da5761ea280973"
    static let secret = "TOP SECRET, outside the catalog\n"

    /// The temporary folder holding `catalog/` and `secret.txt`.
    let base: URL
    let catalog: URL

    var secretFile: URL { base.appendingPathComponent("secret.txt") }

    /// The archive's members, in archive order.
    static let archiveMembers: [(name: String, data: [UInt8])] = [
        ("3cd529b8de8c2516f1205b5c051e52e78bfe21bd.gz", Array(repeating: 0x1F, count: 700)),
        ("2e75c8e57ab9ed44cd8f0f8666da5761ea280973", Array("kind.jpg bytes".utf8)),
        ("9f1e0c4a2b7d3e5f6a8b9c0d1e2f3a4b5c6d7e8f", Array(repeating: 0xAB, count: 1500)),
    ]

    init() throws {
        base = FileManager.default.temporaryDirectory
            .appendingPathComponent("zinc-serve-tests-\(UUID().uuidString)", isDirectory: true)
        catalog = base.appendingPathComponent("catalog", isDirectory: true)
        try Self.populate(catalog)
        try Data(Self.secret.utf8).write(to: secretFile)
    }

    static func populate(_ catalog: URL) throws {
        let index = #"{"id":"com.example.french","format":"1","bundles":{}}"#
        try write(index, to: catalog, "catalog.json")
        try write(index, to: catalog, "index.json")
        try write(Array([0x1F, 0x8B, 0x08, 0x00] + Array(repeating: UInt8(7), count: 40)), to: catalog, "catalog.json.gz")
        try write(Array([0x1F, 0x8B, 0x08, 0x00] + Array(repeating: UInt8(7), count: 40)), to: catalog, "index.json.gz")
        try write(#"{"gzip_threshold": 0.85}"#, to: catalog, "config.json")
        try write(#"{"phone": ["+ *"]}"#, to: catalog, "config/flavorspecs/phone.json")
        try write(#"{"bundle":"Level","version":1}"#, to: catalog, "manifests/Level-1.json")
        try write([0x1F, 0x8B, 0x08, 0x00, 1, 2, 3], to: catalog, "manifests/Level-1.json.gz")
        try write("kind.jpg bytes", to: catalog, "objects/2e/75/\(objectSHA)")
        try write([0x1F, 0x8B, 0x08, 0x00, 9, 9], to: catalog, "objects/3c/d5/3cd529b8de8c2516f1205b5c051e52e78bfe21bd.gz")
        try write(Ustar.archive(archiveMembers), to: catalog, "archives/Level-1.tar")
        try write(Ustar.archive(Array(archiveMembers.prefix(2))), to: catalog, "archives/Level-1~phone.tar")
        try write("", to: catalog, "objects/empty")
        try write("locked", to: catalog, ".zinc.lock")
        try write("half written", to: catalog, ".tmp/catalog.json")
        try write("half written", to: catalog, "objects/.catalog.json.tmp")
    }

    static func write(_ text: String, to folder: URL, _ path: String) throws {
        try write(Array(text.utf8), to: folder, path)
    }

    static func write(_ bytes: [UInt8], to folder: URL, _ path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func write(_ bytes: [UInt8], _ path: String) throws {
        try Self.write(bytes, to: catalog, path)
    }

    func symlink(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: catalog.appendingPathComponent(path).path,
            withDestinationPath: destination
        )
    }

    func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: catalog.appendingPathComponent(path)))
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }
}

// MARK: - ustar

/// Just enough POSIX ustar to build the fixture archive by hand: 512-byte header, data padded
/// to 512 (`TarListing` reads back what a range request returned).
enum Ustar {
    static func archive(_ members: [(name: String, data: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        for member in members {
            out += header(name: member.name, size: member.data.count)
            out += member.data
            out += Array(repeating: 0, count: padding(member.data.count))
        }
        return out + Array(repeating: 0, count: 1024)
    }

    static func padding(_ size: Int) -> Int { (512 - size % 512) % 512 }

    /// Where member `count` starts: the sum of `512 + roundup512(size)` over earlier members.
    static func offset(after members: some Sequence<(name: String, data: [UInt8])>) -> Int {
        members.reduce(0) { $0 + 512 + $1.data.count + padding($1.data.count) }
    }

    static func header(name: String, size: Int) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (i, byte) in text.utf8.enumerated() { header[offset + i] = byte }
        }
        func octal(_ value: Int, width: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: width - 1 - digits.count) + digits
        }
        put(name, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(size, width: 12), at: 124)
        put(octal(0, width: 12), at: 136)
        put("0", at: 156)
        put("ustar", at: 257)
        put("00", at: 263)
        put("        ", at: 148)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, width: 7), at: 148)
        return header
    }
}

// MARK: - Running a server

/// Access-log lines collected from the server's event loops.
final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    func append(_ line: String) {
        lock.withLock { collected.append(line) }
    }

    var lines: [String] { lock.withLock { collected } }

    /// The server logs once the response's last byte is written, which can be a moment after
    /// the client has read it.
    func waitForLines(_ count: Int, timeout: TimeInterval = 5) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.count < count && Date() < deadline { usleep(5_000) }
        return lines
    }
}

struct RunningServer: Sendable {
    let server: CatalogHTTPServer
    let port: Int
    let logs: LogCollector

    func connect() throws -> RawConnection { try RawConnection(port: port) }

    func get(_ target: String, _ headers: [(String, String)] = []) throws -> TestResponse {
        try request("GET", target, headers)
    }

    func request(_ method: String, _ target: String, _ headers: [(String, String)] = []) throws -> TestResponse {
        let connection = try connect()
        defer { connection.close() }
        try connection.send(request: method, target, headers)
        return try connection.readResponse(method: method)
    }
}

/// Starts a server on a free loopback port, runs `body` on a thread of its own (the client
/// blocks on sockets, which must not starve Swift's cooperative pool), then shuts it down.
func withServer(
    root: URL,
    mode: ServerConfiguration.Mode = .singleCatalog,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (RunningServer) throws -> Void
) async throws {
    let logs = LogCollector()
    var configuration = ServerConfiguration(root: root, mode: mode, port: 0, accessLog: { logs.append($0) })
    configure(&configuration)
    let server = CatalogHTTPServer(configuration: configuration)
    let port = try await server.start()
    let running = RunningServer(server: server, port: port, logs: logs)
    let result = await onThread { Result { try body(running) } }
    try await server.shutdown()
    try result.get()
}

/// A fixture catalog served alone at `/`.
func withCatalogServer(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (CatalogFixture, RunningServer) throws -> Void
) async throws {
    let fixture = try CatalogFixture()
    defer { fixture.remove() }
    try await withServer(root: fixture.catalog, configure: configure) { try body(fixture, $0) }
}

func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

// MARK: - A raw HTTP/1.1 client

struct TestResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// Blocking TCP client speaking raw bytes, so tests can send what no HTTP library would.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    init(port: Int, receiveTimeout: Int = 10) throws {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        // A class whose init throws once every property is set still runs `deinit`, which
        // closes the descriptor: each failure path marks it closed (or closes it through
        // `close()`), so the number, perhaps reused by another thread by then, is never
        // closed twice.
        guard descriptor >= 0 else {
            isClosed = true
            throw ClientError(description: "socket: \(errno)")
        }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw ClientError(description: "connect: errno \(code)")
        }
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        systemClose(descriptor)
    }

    func send(request method: String, _ target: String, _ headers: [(String, String)] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
    }

    func send(_ text: String) throws {
        try send(bytes: Array(text.utf8))
    }

    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress!, $0.count) }
            guard n > 0 else { throw ClientError(description: "send: errno \(errno)") }
            sent += n
        }
    }

    /// Reads one response; the body is framed by `Content-Length` or, failing that, by close.
    func readResponse(method: String = "GET") throws -> TestResponse {
        let head = try readHead()
        let noBody = method == "HEAD" || head.status == 304 || head.status == 204 || head.status < 200
        if noBody { return head }
        var response = head
        if let length = head.header("Content-Length").flatMap(Int.init) {
            response.body = try read(exactly: length)
        } else {
            response.body = readUntilClosed()
        }
        return response
    }

    /// Reads a status line and headers, leaving the body unread.
    func readHead() throws -> TestResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.firstRange(of: separator) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw ClientError(description: "bad status line in \(head)")
                }
                let headers = lines.map { line -> (String, String) in
                    let colon = line.firstIndex(of: ":") ?? line.endIndex
                    let value = line[colon...].dropFirst().trimmingCharacters(in: .whitespaces)
                    return (String(line[..<colon]), value)
                }
                return TestResponse(status: status, headers: headers, body: [])
            }
            guard try fill() else { throw ClientError(description: "connection closed before a response head") }
        }
    }

    func read(exactly count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw ClientError(description: "closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    func readUntilClosed() -> [UInt8] {
        while (try? fill()) == true {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// True when the server closes the connection within the receive timeout.
    func isClosedByPeer() -> Bool {
        while true {
            do {
                guard try fill() else { return true }
            } catch {
                return false
            }
        }
    }

    /// Appends what arrives; false on orderly close (or reset), throws on timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        if n > 0 {
            buffer += chunk[..<n]
            return true
        }
        if n == 0 || errno == ECONNRESET { return false }
        throw ClientError(description: "recv: errno \(errno)")
    }
}

// Inside RawConnection, `close` and `send` name its own methods.
private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    send(descriptor, bytes, count, 0)
    #else
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}
