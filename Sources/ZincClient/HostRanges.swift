import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a host answers requests for byte ranges, when not with all of a request's
/// ranges in one `multipart/byteranges` answer (what a chunked update asks first).
package enum RangeSupport: String, Equatable, Sendable {
    /// One range per request: several in one request are answered with the first only,
    /// the whole file (S3, R2), or a refusal (400 from GCS, 416 from Varnish, 501 from
    /// Fastly's segmented caching).
    case onePerRequest = "one_per_request"
    /// `Range` ignored: the whole file even to a request for one range (a simple static
    /// server, a CDN that strips the field). Objects are fetched whole from it.
    case ignored
}

/// A host's `RangeSupport`, as a sync found it and when, kept in `LinkRecords`.
package struct RangeVerdict: Equatable, Sendable {
    package var support: RangeSupport
    package var foundAt: Date

    package init(_ support: RangeSupport, foundAt: Date) {
        self.support = support
        self.foundAt = foundAt
    }

    /// A verdict is believed as long as a measured link (`SourcePreference.freshFor`): a
    /// host whose configuration changed is asked for several ranges again the next day.
    func holds(at now: Date) -> Bool {
        let age = now.timeIntervalSince(foundAt)
        return age >= -60 && age < SourcePreference.freshFor
    }
}

/// What the sources of one sync's chain do with ranges: what the records believed at
/// its start, and what its requests found since. Updated from several fetches at once.
final class HostRanges: Sendable {
    private let urls: [String]
    private let hosts: [String?]
    private let state: Mutex<State>

    private struct State {
        /// By source index; a source absent answers several ranges in one request.
        var support: [Int: RangeSupport]
        /// The sources whose support this sync found, rather than the records told.
        var found = Set<Int>()
        /// The sources that ignore `Range` and had large files fetched whole for it.
        var passedOver = Set<Int>()
    }

    /// - Parameters:
    ///   - urls: the sources' URLs, for notes.
    ///   - hosts: the sources' hosts (`LinkRecords.host(of:)`), nil where no network is involved.
    init(urls: [String], hosts: [String?], records: LinkRecords, now: Date) {
        self.urls = urls
        self.hosts = hosts
        var support = [Int: RangeSupport]()
        for (index, host) in hosts.enumerated() {
            if let host, let verdict = records.ranges[host], verdict.holds(at: now) { support[index] = verdict.support }
        }
        state = Mutex(State(support: support))
    }

    /// How source `index` answers ranges; nil: several in one request. A source that
    /// ignores `Range` is noted as one whose large files are fetched whole.
    func support(of index: Int) -> RangeSupport? {
        state.withLock { state in
            if state.support[index] == .ignored { state.passedOver.insert(index) }
            return state.support[index]
        }
    }

    /// Source `index` answered as `support` says (a host found to ignore `Range` is never
    /// taken back to answering one range per request).
    func found(_ support: RangeSupport, at index: Int) {
        state.withLock { state in
            guard state.support[index] != support, state.support[index] != .ignored else { return }
            state.support[index] = support
            state.found.insert(index)
            if support == .ignored { state.passedOver.insert(index) }
        }
    }

    /// Said once per sync of each source that ignores `Range` and so had large files
    /// fetched whole rather than their changed chunks.
    var notes: [String] {
        state.withLock { $0.passedOver }.sorted().map { "\(urls[$0]) ignores Range: large files are fetched whole from it" }
    }

    /// Adds the verdicts this sync found to `records`, found at `now`, and drops those
    /// past their day; those the records told keep their date, so that each host is asked
    /// for several ranges again within a day.
    func record(into records: inout LinkRecords, now: Date) {
        let (support, found) = state.withLock { ($0.support, $0.found) }
        records.ranges = records.ranges.filter { $0.value.holds(at: now) }
        for index in found {
            guard let host = hosts[index], let verdict = support[index] else { continue }
            records.ranges[host] = RangeVerdict(verdict, foundAt: now)
        }
    }
}
