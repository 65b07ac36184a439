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
