import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP relay on loopback in front of an S3 server (moto) that counts the bytes clients
/// send through it, requests and bodies, and can play a service that refuses to copy
/// parts (`UploadPartCopy`), as GCS's XML API does: a request naming
/// `x-amz-copy-source` is answered 501 `NotImplemented`. Every request goes on a
/// connection of its own (the relay asks the server to close after answering), so each
/// one's head is seen.
public final class S3Proxy: @unchecked Sendable {
    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let target: Int
    private let refusesCopies: Bool
    private let lock = NSLock()
    private var sent = 0
    private var refused = 0

    /// - Parameters:
    ///   - target: the port of the S3 server on loopback.
    ///   - refusesCopies: whether part copies are answered 501.
    public init(to target: Int, refusesCopies: Bool = false) throws {
        self.target = target
        self.refusesCopies = refusesCopies
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in serve() }.start()
    }

    deinit { stop() }

    /// The bytes clients sent so far: request heads and bodies.
    public var bytesSent: Int { lock.withLock { sent } }

    /// How many part copies were refused so far.
    public var refusedCopies: Int { lock.withLock { refused } }

    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            Thread { [self] in relay(client) }.start()
        }
    }

    private func relay(_ client: Int32) {
        defer { close(client) }
        var head = [UInt8]()
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        if refusesCopies, lines.contains(where: { $0.lowercased().hasPrefix("x-amz-copy-source:") }) {
            lock.withLock { refused += 1 }
            let body =
                "<?xml version=\"1.0\"?><Error><Code>NotImplemented</Code><Message>A header you provided implies "
                + "functionality that is not implemented.</Message></Error>"
            Self.write(
                "HTTP/1.1 501 Not Implemented\r\nContent-Type: application/xml\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n" + body, to: client)
            return
        }
        lines.removeAll { $0.lowercased().hasPrefix("connection:") }
        let rewritten = lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n"
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        lock.withLock { sent += head.count }
        Self.write(rewritten, to: server)
        // The body (and anything after it) goes up as it comes; the answer comes down.
        let upwardDone = DispatchSemaphore(value: 0)
        Thread { [self] in
            pump(from: client, to: server) { count in lock.withLock { sent += count } }
            shutdown(server, Int32(SHUT_WR))
            upwardDone.signal()
        }.start()
        pump(from: server, to: client) { _ in }
        // Ends the upward pump too; both sockets close only once it is done with them.
        shutdown(client, Int32(SHUT_RDWR))
        upwardDone.wait()
    }

    private func pump(from source: Int32, to destination: Int32, counting: (Int) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            counting(n)
            guard Self.write(Array(buffer[0..<n]), to: destination) else { return }
        }
    }

    @discardableResult
    private static func write(_ text: String, to socket: Int32) -> Bool { write(Array(text.utf8), to: socket) }

    @discardableResult
    private static func write(_ bytes: [UInt8], to socket: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
