import Zinc

/// Brings every tracked bundle to the version its distro points at: index → version →
/// manifest → plan → fetch → checkout → switch, then removes what nothing uses. The
/// whole run holds the repo lock. Each bundle switches (repo.json) only after its new
/// folder is complete, so a kill at any moment leaves the previous version in use and
/// every verified object in place for the next run to skip. Each run is a `SyncRun`,
/// which holds its state from the first index to the collection.
///
/// The engine is async throughout: its requests in flight hold no thread (with a
/// transport that calls back, such as URLSession's), and its hashing and disk work run
/// on threads of its own (`executor`), never on the cooperative pool. Its blocking
/// methods, which the `zinc` command calls, wait for the same run.
package struct SyncEngine: Sendable {
    package let repo: Repo
    package let options: SyncOptions

    package init(repo: Repo, options: SyncOptions = SyncOptions()) {
        self.repo = repo
        self.options = options
    }

    /// Refreshes every tracked catalog, then brings every tracked bundle to the version its
    /// distribution names. One bundle's failure is reported and does not stop the others.
    /// On the way, each bundle's objects are checked (`StoreCheck`): one damaged on disk
    /// is fetched again, and a checked-out folder that no longer holds its objects' bytes
    /// is rebuilt, so "up to date" means what the app reads is what was verified.
    package func sync() throws(SyncError) -> SyncReport {
        do {
            return try blocking(.follow).report
        } catch {
            throw SyncError(error, repo: repo)
        }
    }

    /// Carries out `plan`: each bundle it plans moves to the version planned, by the
    /// strategy planned (the cost model still decides for bundles planned without one);
    /// the others are left as they are.
    package func sync(following plan: SyncPlan) throws -> SyncReport {
        try blocking(.following(plan)).report
    }

    /// What ``sync()`` would do, without downloading any object (see ``SyncPlan``).
    package func plan() throws -> SyncPlan {
        try blocking(.plan).plan
    }

    /// What ``sync()`` would do, and its downloads for another downloader (see
    /// ``DownloadPlan``); no object is downloaded.
    package func exportDownloads() throws -> (plan: SyncPlan, downloads: DownloadPlan) {
        let run = try blocking(.exportDownloads)
        return (run.plan, DownloadPlan(run.plan, requests: run.downloads))
    }

    /// Takes what another downloader brought for `downloads` (see ``DownloadPlan``).
    package func applyDownloads(_ downloads: DownloadPlan) throws -> SyncReport {
        try blocking(.applying(downloads)).report
    }

    /// Hashes every object of every checked-out version, fetches again those damaged or
    /// missing, and rebuilds the folders that do not hold their objects' bytes, leaving
    /// each bundle at its version: `zinc repo verify --repair`. The indexes are not
    /// fetched; the sources and trusted keys are those of the last sync.
    package func repair() throws -> SyncReport {
        try blocking(.repair).report
    }

    /// ``Repo/seed(from:sources:distro:trustedKeys:hashing:writableFiles:options:)``,
    /// blocking: for the `zinc` command.
    @discardableResult
    package func seed(
        from seedFolder: String, sources: [String], distro: String? = nil, trustedKeys: [PublicKey] = [],
        hashing: SeedHashing = .whenSigned, writableFiles: Bool = false
    ) throws -> SeedResult {
        let request = try repo.seedRequest(
            from: seedFolder, sources: sources, distro: distro, trustedKeys: trustedKeys, hashing: hashing,
            writableFiles: writableFiles)
        return try blockingWait(on: Self.executor) { [self] in try await seed(request) }
    }

    /// A seed run (a mode of the sync's run: the seed's files are one more source of
    /// bytes), on the engine's executor under the repo lock.
    func seed(_ request: SeedRequest) async throws -> SeedResult {
        try await withTaskExecutorPreference(Self.executor) {
            try await repo.withLock(exclusive: true) {
                var run = try SyncRun(repo: repo, options: options, mode: .seed(request))
                try await run.run()
                return run.seedResult(request)
            }
        }
    }

    /// The threads the engine's work runs on: as many as the cores, so that objects are
    /// hashed in parallel. Shared by every sync in the process.
    static let executor = ThreadPoolExecutor()

    private func blocking(_ mode: RunMode) throws -> (report: SyncReport, plan: SyncPlan, downloads: [DownloadPlan.Request]) {
        try blockingWait(on: Self.executor) { [self] in try await run(mode) }
    }

    /// Runs the engine in `mode` on its executor, under the repo lock; the async API's entry.
    package func run(_ mode: RunMode) async throws -> (report: SyncReport, plan: SyncPlan, downloads: [DownloadPlan.Request]) {
        try await withTaskExecutorPreference(Self.executor) {
            try await repo.withLock(exclusive: true) {
                var run = try SyncRun(repo: repo, options: options, mode: mode)
                try await run.run()
                return (run.report, run.plan, run.downloads)
            }
        }
    }
}
