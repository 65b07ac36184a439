import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The links a repo's syncs measured, per host (`links.json` in the repo), so that the
/// next sync plans its first download with the rate it saw last time, and the hosts
/// found to answer one range per request or to ignore `Range` (`RangeVerdict`), so that
/// the next sync within a day does not ask them for several (a refusal or a whole-file
/// answer costs a round trip, and some bytes, before the ranges are asked again).
/// Only hints: a missing, damaged or foreign file is taken as empty and rewritten, and a
/// sync that cannot save it still succeeds. When each link was measured (seconds since
/// 1970) says how far to believe it in choosing which mirror leads (`SourcePreference`).
///
///     {"format":"1","hosts":{"cdn.example.com:443":{"round_trip_ms":92.5,"mbit_per_s":18.2,
///      "measured_at":1795660800}},"single_range":["bucket.s3.amazonaws.com:443"]}
package struct LinkRecords: Equatable {
    static let fileName = "links.json"

    package var hosts: [String: LinkEstimate] = [:]
    /// When each host's link was measured; a host recorded by an older zinc has none.
    package var measuredAt: [String: Date] = [:]
    /// How the hosts that do not answer several ranges at once answer them, and since when.
    package var ranges: [String: RangeVerdict] = [:]

    package init() {}

    /// The key of a source URL: its host and port, or for a bucket (`s3://BUCKET/…`)
    /// `s3://BUCKET`, whatever endpoint serves it; nil where no network is involved.
    package static func host(of url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host, !host.isEmpty
        else { return nil }
        switch scheme {
        case "http", "https": return "\(host.lowercased()):\(parsed.port ?? (scheme == "https" ? 443 : 80))"
        case "s3": return "s3://\(host.lowercased())"
        default: return nil
        }
    }

    static func load(from root: String) -> LinkRecords {
        guard let bytes = try? AtomicFile.read(root + "/" + fileName, limit: 1 << 20) else { return LinkRecords() }
        return parse(bytes)
    }

    func save(in root: String) throws {
        try AtomicFile.write(json().encoded(), to: root + "/" + Self.fileName, durable: false)
    }

    /// Whatever can be believed of `bytes`: hosts with numbers out of bounds are left out.
    package static func parse(_ bytes: [UInt8]) -> LinkRecords {
        var records = LinkRecords()
        guard case .object(let top)? = try? JSONValue.parse(bytes), case .string("1")? = top["format"],
            case .object(let hosts)? = top["hosts"]
        else { return records }
        for (host, value) in hosts.prefix(1000) {
            guard case .object(let entry) = value, let milliseconds = entry["round_trip_ms"]?.number,
                let mbit = entry["mbit_per_s"]?.number
            else { continue }
            let estimate = LinkEstimate(roundTripSeconds: milliseconds / 1000, bytesPerSecond: mbit * 125_000)
            guard LinkEstimate.roundTrips.contains(estimate.roundTripSeconds), LinkEstimate.rates.contains(estimate.bytesPerSecond)
            else { continue }
            records.hosts[host] = estimate
            if let seconds = entry["measured_at"]?.number, (0...1e11).contains(seconds) {
                records.measuredAt[host] = Date(timeIntervalSince1970: seconds)
            }
        }
        if case .object(let hosts)? = top["ranges"] {
            for (host, value) in hosts.prefix(1000) {
                guard case .object(let entry) = value, case .string(let answers)? = entry["answers"],
                    let support = RangeSupport(rawValue: answers), let seconds = entry["found_at"]?.number, (0...1e11).contains(seconds)
                else { continue }
                records.ranges[host] = RangeVerdict(support, foundAt: Date(timeIntervalSince1970: seconds))
            }
        }
        return records
    }

    package func json() -> JSONValue {
        var entries = [String: JSONValue]()
        for (host, estimate) in hosts {
            guard case .object(var entry) = estimate.json else { continue }
            if let measured = measuredAt[host] { entry["measured_at"] = .int(Int64(measured.timeIntervalSince1970.rounded())) }
            entries[host] = .object(entry)
        }
        var top: [String: JSONValue] = ["format": .string("1"), "hosts": .object(entries)]
        if !ranges.isEmpty {
            top["ranges"] = .object(
                ranges.mapValues { verdict in
                    .object([
                        "answers": .string(verdict.support.rawValue),
                        "found_at": .int(Int64(verdict.foundAt.timeIntervalSince1970.rounded())),
                    ])
                })
        }
        return .object(top)
    }
}

extension JSONValue {
    fileprivate var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
