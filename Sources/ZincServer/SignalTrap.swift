import Dispatch
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls a handler when SIGINT or SIGTERM arrives, for as long as the trap is installed; when
/// the last trap for a signal is removed, the process's previous disposition comes back.
///
/// A self-pipe rather than Dispatch signal sources: on Linux, libdispatch installs its own
/// handler once per process and never again, so restoring the default after one server has
/// stopped would leave the next one deaf, and not restoring it would leave the process unable
/// to be interrupted.
package final class SignalTrap: Sendable {
    private struct Relay: Sendable {
        var subscribers: [ObjectIdentifier: (signals: [Int32], handler: @Sendable (Int32) -> Void)] = [:]
        /// What each trapped signal did before, restored when its last subscriber leaves.
        var previousActions: [Int32: sigaction] = [:]
    }

    private static let relay = NIOLockedValueBox(Relay())

    private let signals: [Int32]

    package init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        Self.relay.withLockedValue { relay in
            if relayWriteEnd < 0 { Self.startRelay() }
            relay.subscribers[ObjectIdentifier(self)] = (signals, handler)
            for number in signals where relay.previousActions[number] == nil {
                var action = sigaction()
                #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = relaySignal
                #else
                action.__sigaction_handler.sa_handler = relaySignal
                #endif
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                var previous = sigaction()
                sigaction(number, &action, &previous)
                relay.previousActions[number] = previous
            }
        }
    }

    package func remove() {
        Self.relay.withLockedValue { relay in
            relay.subscribers[ObjectIdentifier(self)] = nil
            let stillTrapped = Set(relay.subscribers.values.flatMap(\.signals))
            for (number, previous) in relay.previousActions where !stillTrapped.contains(number) {
                var previous = previous
                sigaction(number, &previous, nil)
                relay.previousActions[number] = nil
            }
        }
    }

    /// Creates the pipe and the thread that turns its bytes into handler calls. Both live as
    /// long as the process: a blocked thread costs nothing, and closing the pipe could race
    /// with a signal arriving.
    private static func startRelay() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        relayWriteEnd = ends[1]
        let readEnd = ends[0]
        // A serial queue of its own gets a thread of its own from libdispatch (not one of the
        // shared pool's per-core workers), which this loop keeps for good.
        DispatchQueue(label: "ZincServer signal relay").async {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                let number = Int32(byte)
                let handlers = relay.withLockedValue { relay in
                    relay.subscribers.values.filter { $0.signals.contains(number) }.map(\.handler)
                }
                for handler in handlers { handler(number) }
            }
        }
    }
}

/// Set once, before the first handler is installed, and never changed. A global initialised
/// with a constant is not lazily initialised, which would be unsafe inside a signal handler.
nonisolated(unsafe) private var relayWriteEnd: Int32 = -1

/// Runs in signal context: only async-signal-safe calls (`write`) are allowed here.
private func relaySignal(_ number: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relayWriteEnd, &byte, 1)
    errno = savedErrno
}
