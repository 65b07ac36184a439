import Synchronization
import Zinc

/// Learns one host's link from the fetches of a sync, starting from what was recorded.
/// The round trip is the shortest time to a first byte seen (a kept-alive connection's,
/// free of handshakes and queueing); the rate is that of the larger bodies fetched while
/// no other fetch shared the link, their bytes over the time after the first byte.
/// Thread-safe: concurrent fetches report to it.
package final class LinkMeter: Sendable {
    /// Bodies smaller than this say more about latency than about the rate.
    static let rateSampleBytes: Int64 = 256 << 10

    private struct Samples {
        var shortestFirstByte: Double?
        var rateBytes: Int64 = 0
        var rateSeconds = 0.0
    }

    private let recorded: LinkEstimate?
    private let samples = Mutex(Samples())

    package init(recorded: LinkEstimate?) {
        self.recorded = recorded
    }

    /// One fetch: its answer and how long it took in all. `alone` is false when other
    /// fetches shared the link meanwhile, so its rate was a share of the link's.
    package func record(_ response: FetchResponse, duration: Duration, alone: Bool) {
        guard let firstByte = response.timeToFirstByte?.inSeconds else { return }
        let transfer = duration.inSeconds - firstByte
        samples.withLock { samples in
            samples.shortestFirstByte = min(samples.shortestFirstByte ?? firstByte, firstByte)
            if alone, response.received >= Self.rateSampleBytes, transfer > 0 {
                samples.rateBytes += response.received
                samples.rateSeconds += transfer
            }
        }
    }

    /// What this sync measured, completed by what was recorded; nil when it measured
    /// nothing (a `file://` source, or no fetch yet).
    package var measured: LinkEstimate? {
        samples.withLock { samples in
            guard let roundTrip = samples.shortestFirstByte, LinkEstimate.roundTrips.contains(roundTrip) else { return nil }
            let rate = samples.rateSeconds > 0 ? Double(samples.rateBytes) / samples.rateSeconds : nil
            let believed = rate.flatMap { LinkEstimate.rates.contains($0) ? $0 : nil }
            return LinkEstimate(
                roundTripSeconds: roundTrip,
                bytesPerSecond: believed ?? recorded?.bytesPerSecond ?? LinkEstimate.assumedRate(roundTripSeconds: roundTrip))
        }
    }

    /// The best estimate now: measured, else recorded, else assumed.
    package var estimate: LinkEstimate { measured ?? recorded ?? .assumed }
}
