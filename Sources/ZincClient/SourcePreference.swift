#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which of a catalog's sources a sync starts on. The first one tracked (the primary)
/// leads, unless the repo's records, all measured within `freshFor`, show another one
/// clearly faster for a typical update: that mirror then leads, the primary coming
/// next. A record of the primary older than that puts it back in the lead, so that a
/// primary that got faster is found again; mirrors that do not lead are kept measured by
/// a probe (`SourceChain.startProbes`) in syncs that download something. A probe sees a
/// round trip, not a rate: a mirror known by probes alone keeps the rate recorded
/// before, or the assumed one. If it leads and is slower than that, the sync that uses
/// it measures the rate, and the next sync's order follows.
package enum SourcePreference {
    /// How long a measured link is believed when choosing the lead.
    package static let freshFor: TimeInterval = 24 * 3600

    /// A mirror leads only when its typical update is expected to take at most this
    /// share of the primary's time: near ties leave the primary in the lead, and the
    /// order does not flip between syncs on noise.
    static let margin = 0.75

    /// A typical update, for comparing links: the round trips of index, manifest and data
    /// plus one more, and a megabyte.
    static let typicalRoundTrips = 4.0
    static let typicalBytes = 1_048_576.0

    /// The sources' indices in the order to try them, from their hosts (nil for a source
    /// with no network, never measured) and the repo's records as of `now`.
    package static func order(hosts: [String?], records: LinkRecords, now: Date) -> [Int] {
        let configured = Array(hosts.indices)
        guard let primary = hosts.first.flatMap({ fresh($0, records, now) }) else { return configured }
        let faster = hosts.indices.dropFirst()
            .compactMap { index in fresh(hosts[index], records, now).map { (index, seconds($0)) } }
            .filter { $0.1 <= margin * seconds(primary) }
            .min { $0.1 < $1.1 }
        guard let (lead, _) = faster else { return configured }
        return [lead] + configured.filter { $0 != lead }
    }

    /// The sources worth probing: those with a network whose link has no fresh record.
    package static func stale(hosts: [String?], records: LinkRecords, now: Date) -> [Int] {
        hosts.indices.filter { hosts[$0] != nil && fresh(hosts[$0], records, now) == nil }
    }

    /// The recorded link of `host`, if it was measured within `freshFor` (a time ahead
    /// of `now` by more than a minute, from a clock set back since, is not believed).
    static func fresh(_ host: String?, _ records: LinkRecords, _ now: Date) -> LinkEstimate? {
        guard let host, let estimate = records.hosts[host], let measured = records.measuredAt[host] else { return nil }
        let age = now.timeIntervalSince(measured)
        return age >= -60 && age < freshFor ? estimate : nil
    }

    static func seconds(_ link: LinkEstimate) -> Double {
        typicalRoundTrips * link.roundTripSeconds + typicalBytes / link.bytesPerSecond
    }
}
