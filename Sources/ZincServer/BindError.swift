import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the server could not listen, in words that name the host and port, so that a
/// busy port reads as one line rather than as the socket call's errno.
public struct BindError: Error, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Another process (often another `zinc serve`) listens there.
        case addressInUse
        /// Ports below 1024 need privileges.
        case permissionDenied
        /// The host is not an address of this machine.
        case addressNotAvailable
        case other(String)
    }

    public let reason: Reason
    public let host: String
    public let port: Int

    public init(reason: Reason, host: String, port: Int) {
        self.reason = reason
        self.host = host
        self.port = port
    }

    init(_ error: any Error, host: String, port: Int) {
        let reason: Reason
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: reason = .addressInUse
        case EACCES: reason = .permissionDenied
        case EADDRNOTAVAIL: reason = .addressNotAvailable
        default: reason = .other("\(error)")
        }
        self.init(reason: reason, host: host, port: port)
    }

    public var description: String {
        switch reason {
        case .addressInUse: "port \(port) on \(host) is already in use"
        case .permissionDenied: "no permission to listen on port \(port) on \(host)"
        case .addressNotAvailable: "cannot listen on \(host): not an address of this machine"
        case .other(let message): "cannot listen on port \(port) on \(host): \(message)"
        }
    }
}
