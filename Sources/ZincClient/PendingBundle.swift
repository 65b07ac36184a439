import Zinc

/// A bundle of a catalog as a sync planned it, waiting for the catalog's other bundles
/// to be planned before it downloads (so that progress knows their bytes from the first):
/// its report so far, its update (nil: up to date, or it failed), and what planned it.
struct PendingBundle {
    /// What `SyncRun.prepare` is given, to plan the bundle again when an earlier bundle's
    /// download brought objects it planned to fetch.
    struct Preparation {
        let version: Int
        let forced: FetchStrategy?
        let follows: Bool
        let checks: SignatureChecks?
    }

    /// Its index in the repo's tracked bundles.
    let index: Int
    var result: SyncReport.BundleSync
    let update: PreparedUpdate?
    let preparation: Preparation?
    let traffic: TrafficAccount
    /// The time its planning took.
    let elapsed: Duration
}

extension SyncRun {
    /// Downloads `bundle`'s update and switches the bundle to it. When an earlier bundle
    /// of the catalog has downloaded (`downloaded`) objects this one planned to fetch, it
    /// is planned again first, so that those are not fetched twice; `downloaded` is set
    /// once this one brings any object byte. Progress is told of an update that fails.
    mutating func download(
        _ update: PreparedUpdate, of bundle: inout PendingBundle, chain: SourceChain, downloaded: inout Bool
    ) async throws {
        var expected = update.fetchBytes
        do {
            var latest: PreparedUpdate? = update
            if downloaded, update.fetchesStored(in: repo), let preparation = bundle.preparation {
                latest = try await bundle.traffic.charging {
                    try await prepare(preparation, of: state.bundles[bundle.index], chain: chain, result: &bundle.result)
                }
                progress.expect(latest?.fetchBytes ?? 0, replacing: expected)
                expected = latest?.fetchBytes ?? 0
            }
            guard let latest else {
                bundle.result.outcome = .upToDate
                return
            }
            try await bundle.traffic.charging {
                try await execute(latest, bundle: bundle.index, chain: chain, result: &bundle.result)
            }
            downloaded = downloaded || expected > 0
            try state.save(in: repo.root)  // the switch
        } catch {
            progress.ended(update.name, expected: expected, finished: false)
            throw error
        }
    }

    /// `SyncRun.prepare` with what `preparation` gives.
    mutating func prepare(
        _ preparation: PendingBundle.Preparation, of tracked: RepoState.TrackedBundle, chain: SourceChain,
        result: inout SyncReport.BundleSync
    ) async throws -> PreparedUpdate? {
        try await prepare(
            tracked, to: preparation.version, forced: preparation.forced, follows: preparation.follows, chain: chain,
            checks: preparation.checks, result: &result)
    }
}
