import CLibCurl
import Synchronization

/// Stops one request from another thread (a cancelled sync): given in `HTTPRequest.stop`,
/// `fire()` ends the request's transfer at once, or keeps it from starting.
package final class TransferStop: Sendable {
    private struct State {
        var fired = false
        /// The transfer performing the request, as a bit pattern (a pointer is not Sendable).
        var transfer: UInt?
    }

    private let state = Mutex(State())

    package init() {}

    package var fired: Bool { state.withLock { $0.fired } }

    package func fire() {
        state.withLock { state in
            state.fired = true
            if let transfer = state.transfer { zinc_curl_transfer_stop(OpaquePointer(bitPattern: transfer)) }
        }
    }

    /// Makes `transfer` the one `fire` stops; false when fired already (do not perform).
    func attach(_ transfer: OpaquePointer) -> Bool {
        state.withLock { state in
            guard !state.fired else { return false }
            // Under the lock, so that a fire either sees the transfer or is seen here.
            zinc_curl_transfer_rearm(transfer)
            state.transfer = UInt(bitPattern: transfer)
            return true
        }
    }

    func detach() { state.withLock { $0.transfer = nil } }
}
