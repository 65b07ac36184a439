/// What a download costs, in bytes: the bytes themselves plus, for each round of
/// requests, what the link could have moved during one round trip. `concurrency`
/// requests are in flight at once, so `n` requests wait `ceil(n / concurrency)` round
/// trips, and one more when they spread over several connections: the first request
/// reuses the connection the index came on, the others open new ones, a handshake each
/// (side by side). While one request waits for its answer, the answers of the others
/// keep the link busy: requests in flight together cost their rounds and one
/// connection's share of the bytes, or their bytes and one round trip, whichever is
/// more. A strategy of hundreds of large objects thus costs what its bytes cost, as it
/// does on a real link (with one request at a time, every round is waited for). Each
/// request also costs the work both ends do for it (`requestHandlingSeconds`), which no
/// concurrency hides: on a fast link that work, not the round trip, is what thousands of
/// requests cost. A client syncing builds it from the link it measured
/// (`LinkEstimate.costModel`); the fixed 16 KiB stands for a phone's round trip on a few
/// Mbit/s where nothing is known.
public struct CostModel: Equatable, Sendable {
    public var requestOverhead: Int64
    /// Requests in flight at once; at least 1.
    public var concurrency: Int
    /// What each request costs besides its round, in bytes; 0 in the fixed model.
    public var requestHandling: Int64 = 0

    public static let defaultRequestOverhead: Int64 = 16 << 10

    /// The time both ends spend on one request, apart from moving its body: headers
    /// sent and parsed, a file opened to serve it and one to take it. Measured on loopback
    /// (2 cores, `Benchmarks/client-scale` at 20,000 files): a first sync by the objects
    /// took 0.36 ms of the client's processor and 0.13 ms of the server's per object more
    /// than by the archive; a quarter of a millisecond leaves a margin for faster ones.
    package static let requestHandlingSeconds = 0.00025

    public init(requestOverhead: Int64 = defaultRequestOverhead, concurrency: Int = 1) {
        self.requestOverhead = max(0, requestOverhead)
        self.concurrency = max(1, concurrency)
    }

    /// The model of a link: a round trip, and each request's handling, cost the bytes
    /// the link moves in that time.
    public init(roundTripSeconds: Double, bytesPerSecond: Double, concurrency: Int) {
        self.init(requestOverhead: Self.bytes(roundTripSeconds * bytesPerSecond), concurrency: concurrency)
        requestHandling = Self.bytes(Self.requestHandlingSeconds * bytesPerSecond)
    }

    /// A count of bytes computed from a link's figures, to the nearest; 0 when they make no sense.
    private static func bytes(_ value: Double) -> Int64 {
        value.isFinite && value < 1e15 ? Int64(max(0, value).rounded()) : 0
    }

    /// The cost of a fetch plan, in bytes.
    package func cost(requests: Int, bytes: Int64) -> Int64 {
        guard requests > 0 else { return bytes }
        let opening: Int64 = requests > 1 && concurrency > 1 ? 1 : 0
        let rounds = Int64(requests / concurrency + (requests % concurrency == 0 ? 0 : 1))
        // Waiting on the rounds with one connection's bytes, or the link busy throughout.
        let waited = Self.sum(Self.product(rounds, requestOverhead), bytes / Int64(min(requests, concurrency)))
        let link = Self.sum(Self.product(opening, requestOverhead), max(waited, Self.sum(requestOverhead, bytes)))
        return Self.sum(link, Self.product(Int64(requests), requestHandling))
    }

    private static func product(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : value
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : value
    }
}
