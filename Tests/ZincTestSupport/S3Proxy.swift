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
        (listener, port) = try LoopbackSocket.listening(backlog: 64)
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
        guard let server = LoopbackSocket.connected(to: target) else { return }
        defer { close(server) }
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
            guard LoopbackSocket.sendAll(Array(buffer[0..<n]), on: destination) else { return }
        }
    }

    @discardableResult
    private static func write(_ text: String, to socket: Int32) -> Bool { LoopbackSocket.sendAll(Array(text.utf8), on: socket) }

}
