import Zinc

/// What the client knows of its link to one host: the round trip and the rate. A sync
/// plans with it (each strategy's cost is its bytes plus a round trip's worth of bytes
/// per round of requests), learns it afresh from the requests it makes, and keeps it in
/// the repo (`LinkRecords`) for the next sync, whose first plan is made before any
/// large download could show the rate.
package struct LinkEstimate: Equatable, Sendable, Encodable {
    package var roundTripSeconds: Double
    package var bytesPerSecond: Double

    /// What is assumed of a link nothing is known of: a phone's, 100 ms and 20 Mbit/s.
    package static let assumed = LinkEstimate(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000)

    /// The rate assumed of a link whose round trip is known and whose rate is not yet: one
    /// that moves at least what the assumed link moves in a round trip (250 KB), up to
    /// 10 Gbit/s. A short round trip is a wired or local link's: taken for a phone's 20
    /// Mbit/s, a loopback's 0.1 ms made a round of requests cost 250 bytes, and a first
    /// sync chose 20,000 requests over one archive.
    package static func assumedRate(roundTripSeconds: Double) -> Double {
        guard roundTripSeconds < assumed.roundTripSeconds else { return assumed.bytesPerSecond }
        return min(assumed.roundTripSeconds * assumed.bytesPerSecond / roundTripSeconds, 1.25e9)
    }

    /// The bounds a measured or recorded value must fall in to be believed.
    static let roundTrips = 0.0...60.0
    static let rates = 1_000.0...1e12

    package init(roundTripSeconds: Double, bytesPerSecond: Double) {
        self.roundTripSeconds = roundTripSeconds
        self.bytesPerSecond = bytesPerSecond
    }

    /// `{"round_trip_ms": 92.5, "mbit_per_s": 18.2}`: rounded to a tenth, all a plan can use.
    /// The repo's `links.json` keeps each host's estimate in this form (`LinkRecords`).
    package var json: JSONValue {
        .object([
            "round_trip_ms": .double((roundTripSeconds * 10_000).rounded() / 10),
            "mbit_per_s": .double((bytesPerSecond / 12_500).rounded() / 10),
        ])
    }

    /// As `links.json` records it: rounded to a tenth, all a plan can use.
    package func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// How fetches weigh on this link with `concurrency` requests in flight.
    package func costModel(concurrency: Int) -> CostModel {
        CostModel(roundTripSeconds: roundTripSeconds, bytesPerSecond: bytesPerSecond, concurrency: concurrency)
    }
}
