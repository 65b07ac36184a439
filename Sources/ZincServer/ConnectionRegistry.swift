import NIOConcurrencyHelpers
import NIOCore

/// The open connections of a server, so that shutdown can ask each to finish and close.
final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var isQuiescing = false
    }

    private let state = NIOLockedValueBox(State())

    /// Returns false once shutdown has begun: the caller then closes the new connection, which
    /// was accepted just before the listening socket closed.
    func register(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let accepted = state.withLockedValue { state in
            guard !state.isQuiescing else { return false }
            state.channels[id] = channel
            return true
        }
        if accepted {
            channel.closeFuture.whenComplete { _ in
                self.state.withLockedValue { _ = $0.channels.removeValue(forKey: id) }
            }
        }
        return accepted
    }

    /// Stops registration and returns the connections still open.
    func beginQuiescing() -> [any Channel] {
        state.withLockedValue { state in
            state.isQuiescing = true
            return Array(state.channels.values)
        }
    }
}
