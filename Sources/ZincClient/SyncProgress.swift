import Synchronization
import Zinc

/// Where a sync is, for progress displays: the phase of one bundle and, while it
/// downloads, the objects it lacks and the bytes it must fetch for them (the archive
/// range, the chunks, or the objects one by one), and how many have arrived; beside
/// them, the bytes of the whole sync.
///
/// Every bundle of a catalog is planned before any of them downloads, so the overall
/// total counts them all before the first object byte. It grows when the sync reaches
/// the next catalog, or a bundle has objects to fetch one by one after all (an archive
/// that was not there), and shrinks when a bundle fails: what was left of it will not
/// come. The overall completed bytes end equal to the total. A bundle over
/// ``SyncOptions/maxBytes`` is not counted.
public struct SyncProgress: Sendable, Equatable {
    /// Where a bundle's sync is.
    public enum Phase: String, Sendable {
        /// Objects, bytes and requests are being counted (manifest, local checks, plan).
        case planning
        /// The missing objects (or their chunks) are being fetched.
        case downloading
        /// The bundle's folder is complete and in use.
        case finished
        /// The bundle's update failed (the sync's report says why): its counts are what
        /// arrived, and the overall total no longer counts what did not.
        case failed
    }

    /// `catalog.bundle-version[~flavor]`, as the repo names the bundle's folder.
    public let bundle: String
    public let phase: Phase
    /// The bundle's objects and bytes: zero while planning, complete once finished.
    public let completedObjects: Int
    public let totalObjects: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
    /// The bytes of every bundle's objects that this sync has downloaded so far.
    public let overallCompletedBytes: Int64
    /// The bytes of every bundle's objects that this sync is to download, as far as the
    /// catalogs reached so far tell.
    public let overallTotalBytes: Int64
}

/// Counts a sync's downloads, bundle after bundle, and reports each step: at most one
/// report a tenth of a second while bytes arrive, and every change of phase, in order.
/// Bytes of an archive range in flight are read off the partial file, whatever transport
/// writes it. With no one to report to, it counts nothing.
final class SyncMeter: Sendable {
    private struct Counts {
        var bundle = ""
        /// Whether `bundle` is downloading (its counts below are its own).
        var active = false
        var objects = 0
        var totalObjects = 0
        /// The bundle's bytes of downloads finished, and of the one being watched.
        var finishedBytes: Int64 = 0
        var watchedBytes: Int64 = 0
        var totalBytes: Int64 = 0
        /// The bytes of the bundles downloaded before this one, and of every bundle expected.
        var earlierBytes: Int64 = 0
        var overallBytes: Int64 = 0
        var lastReport: ContinuousClock.Instant?
        /// The last bundle `ended`.
        var settled: String?

        var completedBytes: Int64 { finishedBytes + watchedBytes }

        func progress(_ phase: SyncProgress.Phase) -> SyncProgress {
            let counted = phase != .planning
            return SyncProgress(
                bundle: bundle, phase: phase, completedObjects: counted ? objects : 0, totalObjects: counted ? totalObjects : 0,
                completedBytes: counted ? completedBytes : 0, totalBytes: counted ? totalBytes : 0,
                overallCompletedBytes: earlierBytes + (active ? completedBytes : 0), overallTotalBytes: overallBytes)
        }
    }

    /// The least time between two reports while bytes arrive.
    static let interval = Duration.milliseconds(100)
    private let counts = Mutex(Counts())
    private let report: (@Sendable (SyncProgress) -> Void)?

    init(report: (@Sendable (SyncProgress) -> Void)?) {
        self.report = report
    }

    /// A bundle is being planned.
    func planning(_ bundle: String) {
        send(.planning) { $0.bundle = bundle }
    }

    /// A bundle's update will download `bytes` (`PreparedUpdate.fetchBytes`), in place
    /// of the `replacing` bytes it was expected to before it was planned again.
    func expect(_ bytes: Int64, replacing earlier: Int64 = 0) {
        guard report != nil else { return }
        counts.withLock { $0.overallBytes += bytes - earlier }
    }

    /// A bundle's download of `objects` objects and `bytes` bytes (those it was expected to) starts.
    func downloading(_ bundle: String, objects: Int, bytes: Int64) {
        send(.downloading) {
            ($0.bundle, $0.active) = (bundle, true)
            ($0.objects, $0.totalObjects) = (0, objects)
            ($0.finishedBytes, $0.watchedBytes, $0.totalBytes) = (0, 0, bytes)
        }
    }

    /// Objects fetched one by one after all (the archive was not there): more to fetch.
    func addBytesToFetch(_ bytes: Int64) {
        send(.downloading, throttled: true) {
            $0.totalBytes += bytes
            $0.overallBytes += bytes
        }
    }

    func finished(objects: Int, bytes: Int64) {
        send(.downloading, throttled: true) {
            $0.objects += objects
            $0.finishedBytes += bytes
        }
    }

    /// A bundle expected to download `expected` bytes is done with (once; later calls
    /// for it change nothing): what it did not fetch (it failed, or fetched less than
    /// planned) leaves the overall total, and it is reported `finished`, its counts
    /// complete, or `failed`.
    func ended(_ bundle: String, expected: Int64, finished: Bool) {
        // Called from the run's one flow: a bundle is never ended from two threads at once.
        guard report != nil, counts.withLock({ $0.settled != bundle }) else { return }
        let settle: (inout Counts) -> Void = {
            $0.settled = bundle
            guard $0.active, $0.bundle == bundle else {
                // Its download never started.
                $0.overallBytes -= expected
                ($0.bundle, $0.objects, $0.totalObjects, $0.finishedBytes, $0.watchedBytes, $0.totalBytes) = (bundle, 0, 0, 0, 0, 0)
                return
            }
            $0.overallBytes -= $0.totalBytes - $0.completedBytes
            $0.totalBytes = $0.completedBytes
            if finished { $0.objects = $0.totalObjects }
        }
        send(finished ? .finished : .failed, settle)
        counts.withLock {
            if $0.active { $0.earlierBytes += $0.completedBytes }
            $0.active = false
        }
    }

    /// Runs `download` while reporting the growth of `part` from `base` bytes on.
    func watching<T>(_ part: String, base: Int64, _ download: () async throws -> T) async rethrows -> T {
        guard report != nil else { return try await download() }
        let measure: @Sendable () -> Void = { [self] in
            guard let size = try? PosixFile.open(part).status().st_size else { return }
            send(.downloading, throttled: true) { $0.watchedBytes = max($0.watchedBytes, base + Int64(size)) }
        }
        // Looked at more often than reported, so that no report comes much later than the interval.
        let watcher = PeriodicThread(every: 0.025, measure)
        defer {
            watcher.stop()
            measure()  // where it ended, however short the download was
        }
        return try await download()
    }

    /// Applies `change` and reports the phase, unless `throttled`, the download not
    /// complete and the last report more recent than the interval. Reported under the lock: reports from the download's
    /// several tasks arrive in the order of their counts, which never go back.
    private func send(_ phase: SyncProgress.Phase, throttled: Bool = false, _ change: (inout Counts) -> Void) {
        guard let report else { return }
        counts.withLock { counts in
            change(&counts)
            let now = ContinuousClock.now
            // The report of a download complete is never held back.
            let complete = counts.objects >= counts.totalObjects && counts.completedBytes >= counts.totalBytes
            if throttled, !complete, let last = counts.lastReport, now - last < Self.interval { return }
            counts.lastReport = now
            report(counts.progress(phase))
        }
    }
}
