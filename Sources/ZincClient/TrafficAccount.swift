import Synchronization

/// The requests and response bytes charged to one part of a sync: a catalog's index, a
/// bundle, a bundle's objects. A `SourceChain` charges every request it counts to the
/// account its task runs under (`SourceChain.account`), and so to each account that
/// account is `within`: what a bundle moved is what its own tasks fetched, whatever runs
/// beside them (a probe of a mirror, charged to none), not a difference of shared counters.
final class TrafficAccount: Sendable {
    private let counts = Mutex((requests: 0, bytes: Int64(0)))
    private let enclosing: TrafficAccount?

    /// - Parameter enclosing: an account charged with everything this one is (a bundle's,
    ///   for its objects').
    init(within enclosing: TrafficAccount? = nil) {
        self.enclosing = enclosing
    }

    var requests: Int { counts.withLock { $0.requests } }
    var bytes: Int64 { counts.withLock { $0.bytes } }

    func charge(requests: Int, bytes: Int64) {
        counts.withLock { counts in
            counts.requests += requests
            counts.bytes += bytes
        }
        enclosing?.charge(requests: requests, bytes: bytes)
    }

    /// Runs `body` with this account charged for its fetches, and those of the tasks it starts.
    func charging<T>(_ body: () async throws -> T) async rethrows -> T {
        try await SourceChain.$account.withValue(self, operation: body)
    }
}
