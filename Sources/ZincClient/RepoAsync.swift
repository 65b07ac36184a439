import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The repo's operations for Swift concurrency: what an app calls. A sync awaits the
/// same engine as the blocking API (which the `zinc` command uses): its requests in
/// flight hold no thread, and its hashing and disk work run on the engine's threads,
/// off the cooperative pool, so a sync of gigabytes never holds up the app's tasks;
/// `track` likewise. The operations without network (status, verify) run on a thread of
/// their own.
/// Cancelling the calling task cancels the operation: the requests in flight stop at
/// once, and the call throws a ``SyncError`` with code ``SyncError/Code/cancelled``,
/// leaving what an interrupted sync leaves (the previous version in use, and what was
/// verified and downloaded kept for the next sync to resume from). Every failure is a
/// ``SyncError``, whose ``SyncError/code`` an app switches on.
extension Repo {
    /// Opens the repo in `folder` (a file URL), creating it first when there is none,
    /// with `install` as who it is to rollouts (nil: a random id; see
    /// ``Repo/initialize(at:install:)``).
    public static func openOrCreate(at folder: URL, install: InstallIdentity? = nil) throws(SyncError) -> Repo {
        try openOrCreate(at: try localPath(folder), install: install)
    }

    /// ``openOrCreate(at:install:)`` for a path.
    package static func openOrCreate(at path: String, install: InstallIdentity? = nil) throws(SyncError) -> Repo {
        do {
            if let repo = try? Repo(at: path) { return repo }
            return try Repo.initialize(at: path, install: install)
        } catch {
            throw SyncError(error)
        }
    }

    /// Refreshes every tracked catalog's index, then brings every tracked bundle to the
    /// version its distribution points at. On the way each bundle's objects are checked:
    /// one damaged on disk is fetched again, and a checked-out folder that no longer holds
    /// its objects' bytes is rebuilt, so "up to date" means that what the app reads is what
    /// was verified. One bundle's failure is in the report (its
    /// ``SyncReport/BundleSync/failure``), not thrown; what is thrown stopped the whole
    /// sync (a cancellation, a repo that cannot be read).
    /// - Parameters:
    ///   - options: how to fetch (transport, strategy, budget, concurrency).
    ///   - progress: receives each bundle's progress and the whole sync's bytes as the
    ///     sync goes (beside `options.progress`, if any), and is finished when the sync ends.
    public func sync(
        options: SyncOptions = SyncOptions(), progress: AsyncStream<SyncProgress>.Continuation? = nil
    ) async throws(SyncError) -> SyncReport {
        try await run(options, progress) { repo, options in try await SyncEngine(repo: repo, options: options).run(.follow).report }
    }

    /// What ``sync(options:progress:)`` would do, with no object downloaded (see ``SyncPlan``).
    public func plan(options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncPlan {
        try await run(options, nil) { repo, options in try await SyncEngine(repo: repo, options: options).run(.plan).plan }
    }

    /// Carries out `plan` (see `SyncEngine.sync(following:)`): what was approved is what
    /// is downloaded.
    public func sync(
        following plan: SyncPlan, options: SyncOptions = SyncOptions(), progress: AsyncStream<SyncProgress>.Continuation? = nil
    ) async throws(SyncError) -> SyncReport {
        try await run(options, progress) { repo, options in
            try await SyncEngine(repo: repo, options: options).run(.following(plan)).report
        }
    }

    /// What ``sync(options:progress:)`` would download, as requests for another
    /// downloader to make (a system service, another process; see ``DownloadPlan``). Like
    /// ``plan(options:)``, it fetches the indexes and manifests, and no object. The
    /// bundles it could not plan are left out.
    public func exportDownloads(options: SyncOptions = SyncOptions()) async throws(SyncError) -> DownloadPlan {
        try await run(options, nil) { repo, options in
            let run = try await SyncEngine(repo: repo, options: options).run(.exportDownloads)
            return DownloadPlan(run.plan, requests: run.downloads)
        }
    }

    /// Brings each bundle `downloads` was made for to its version, taking what the
    /// downloads brought: every file is verified before it is kept, and what is missing
    /// or wrong (a request that failed, a file cut short) is fetched as a sync fetches
    /// it. What the downloads left is then removed.
    public func applyDownloads(
        _ downloads: DownloadPlan, options: SyncOptions = SyncOptions(), progress: AsyncStream<SyncProgress>.Continuation? = nil
    ) async throws(SyncError) -> SyncReport {
        try await run(options, progress) { repo, options in
            try await SyncEngine(repo: repo, options: options).run(.applying(downloads)).report
        }
    }

    /// Fetches again what is damaged or missing in the checked-out versions, without
    /// moving any bundle (see `SyncEngine.repair()`).
    public func repair(
        options: SyncOptions = SyncOptions(), progress: AsyncStream<SyncProgress>.Continuation? = nil
    ) async throws(SyncError) -> SyncReport {
        try await run(options, progress) { repo, options in try await SyncEngine(repo: repo, options: options).run(.repair).report }
    }

    /// Starts tracking `bundle` of the catalog at `url` (`https://`, `http://`, `s3://`
    /// or a `file://` URL of a local catalog). The catalog's index is fetched once to
    /// learn its id and check that the bundle and `distro` exist; the files come with
    /// the next sync. With `trustedKeys` (several during a key rotation), they replace
    /// the catalog's trusted keys, and syncs then use only an index and manifests signed
    /// by one of them. With `writableFiles`, the bundle's files are the app's own (see
    /// ``RepoState/TrackedBundle/writableFiles``).
    @discardableResult
    public func track(
        url: URL, bundle: String, distro: String = "master", flavor: String? = nil, trustedKeys: [PublicKey] = [],
        writableFiles: Bool = false, options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> RepoState.TrackedBundle {
        try await track(
            url: catalogLocation(of: url), bundle: bundle, distro: distro, flavor: flavor, trustedKeys: trustedKeys,
            writableFiles: writableFiles, options: options)
    }

    /// ``track(url:bundle:distro:flavor:trustedKeys:writableFiles:options:)`` for a URL
    /// or a local path spelled as text, as the `zinc` command takes it.
    @discardableResult
    package func track(
        url location: String, bundle: String, distro: String = "master", flavor: String? = nil,
        trustedKeys: [PublicKey] = [], writableFiles: Bool = false, options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> RepoState.TrackedBundle {
        try await run(options, nil) { repo, options in
            try await repo.trackBundle(
                url: location, bundle: bundle, distro: distro, flavor: flavor, trustedKeys: trustedKeys, writableFiles: writableFiles,
                options: options)
        }
    }

    /// What each tracked bundle has on disk (see the blocking `status()`); no network.
    public func status() async throws(SyncError) -> [BundleStatus] {
        try await run(SyncOptions(), nil) { repo, _ in try await onWorkerThread { try repo.status() } }
    }

    /// Hashes every checked-out object and file (see the blocking `verify()`); no network.
    public func verify() async throws(SyncError) -> [BundleHealth] {
        try await run(SyncOptions(), nil) { repo, _ in try await onWorkerThread { try repo.verify() } }
    }

    func run<T: Sendable>(
        _ options: SyncOptions, _ progress: AsyncStream<SyncProgress>.Continuation?,
        _ body: @escaping @Sendable (Repo, SyncOptions) async throws -> T
    ) async throws(SyncError) -> T {
        var options = options
        let cancellation = options.cancellation ?? SyncCancellation()
        options.cancellation = cancellation
        if let progress {
            let told = options.progress
            options.progress = { update in
                told?(update)
                progress.yield(update)
            }
        }
        defer { progress?.finish() }
        let repo = self
        let settled = options
        do {
            return try await withTaskCancellationHandler {
                try await body(repo, settled)
            } onCancel: {
                cancellation.cancel()
            }
        } catch {
            throw SyncError(error, repo: self)
        }
    }
}
