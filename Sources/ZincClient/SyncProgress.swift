import Synchronization
import Zinc

/// Where a sync's download for one bundle is, for progress displays: its phase and,
/// while downloading, the objects it lacks and the bytes it must fetch for them (the
/// archive range, the chunks, or the objects one by one), and how many have arrived.
/// The counts are zero in the other phases.
public struct SyncProgress: Sendable, Equatable {
    /// Where a bundle's sync is.
    public enum Phase: String, Sendable {
        /// Objects, bytes and requests are being counted (manifest, local checks, plan).
        case planning
        /// The missing objects (or their chunks) are being fetched.
        case downloading
        /// The bundle's folder is complete and in use.
        case finished
    }

    /// `catalog.bundle-version[~flavor]`, as the repo names the bundle's folder.
    public let bundle: String
    public let phase: Phase
    public let completedObjects: Int
    public let totalObjects: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
}

/// Counts one bundle's download and reports each step; bytes of an archive range in
/// flight are read off the partial file every tenth of a second, whatever transport
/// writes it.
final class SyncMeter: Sendable {
    private struct Counts {
        var objects = 0
        /// Bytes of downloads finished, and of the one being watched.
        var finishedBytes: Int64 = 0
        var watchedBytes: Int64 = 0
        var totalBytes: Int64
    }

    private let bundle: String
    private let totalObjects: Int
    private let counts: Mutex<Counts>
    private let report: (@Sendable (SyncProgress) -> Void)?

    init(bundle: String, totalObjects: Int, totalBytes: Int64, report: (@Sendable (SyncProgress) -> Void)?) {
        self.bundle = bundle
        self.totalObjects = totalObjects
        counts = Mutex(Counts(totalBytes: totalBytes))
        self.report = report
        send { _ in }
    }

    /// Objects fetched one by one after all (the archive was not there): more to fetch.
    func addBytesToFetch(_ bytes: Int64) { send { $0.totalBytes += bytes } }

    func finished(objects: Int, bytes: Int64) {
        send {
            $0.objects += objects
            $0.finishedBytes += bytes
        }
    }

    /// Runs `download` while reporting the growth of `part` from `base` bytes on.
    func watching<T>(_ part: String, base: Int64, _ download: () async throws -> T) async rethrows -> T {
        guard report != nil else { return try await download() }
        let measure: @Sendable () -> Void = { [self] in
            guard let size = try? PosixFile.open(part).status().st_size else { return }
            send { $0.watchedBytes = max($0.watchedBytes, base + Int64(size)) }
        }
        let watcher = PeriodicThread(every: 0.1, measure)
        defer {
            watcher.stop()
            measure()  // where it ended, however short the download was
        }
        return try await download()
    }

    private func send(_ change: (inout Counts) -> Void) {
        guard let report else { return }
        let counts = self.counts.withLock { counts in
            change(&counts)
            return counts
        }
        report(
            SyncProgress(
                bundle: bundle, phase: .downloading, completedObjects: counts.objects, totalObjects: totalObjects,
                completedBytes: counts.finishedBytes + counts.watchedBytes, totalBytes: counts.totalBytes))
    }

    /// Tells `report` that `bundle` is at `phase` outside a download (planning, finished).
    static func announce(_ phase: SyncProgress.Phase, bundle: String, report: (@Sendable (SyncProgress) -> Void)?) {
        report?(SyncProgress(bundle: bundle, phase: phase, completedObjects: 0, totalObjects: 0, completedBytes: 0, totalBytes: 0))
    }
}
