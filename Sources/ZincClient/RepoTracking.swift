import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Repo {
    /// Starts tracking `bundle` of the catalog at `url` (or a local path, see
    /// `catalogURL(forLocation:)`). The catalog's index is fetched once to learn its id
    /// (a catalog id may gather several URLs, tried in order; a URL it has already in
    /// another spelling, such as with a trailing `/` or the host in capitals, is not added
    /// again) and to check that the bundle and distro exist; the files come with the next sync. With `trustedKeys`
    /// (several during a key rotation), they replace the catalog's trusted keys, and
    /// syncs then use only an index and manifests signed by one of them; without, the
    /// catalog keeps those it has. With `writableFiles`, the bundle's files are the app's
    /// own (see ``RepoState/TrackedBundle/writableFiles``).
    @discardableResult
    package func track(
        url location: String, bundle: String, distro: String = "master", flavor: String? = nil,
        trustedKeys: [PublicKey] = [], writableFiles: Bool = false, options: SyncOptions = SyncOptions()
    ) throws(SyncError) -> RepoState.TrackedBundle {
        do {
            return try blockingWait(on: SyncEngine.executor) { [self] in
                try await trackBundle(
                    url: location, bundle: bundle, distro: distro, flavor: flavor, trustedKeys: trustedKeys,
                    writableFiles: writableFiles, options: options)
            }
        } catch {
            throw SyncError(error, repo: self)
        }
    }

    /// What both `track` calls do, the blocking one and the async one, on the engine's
    /// threads: the index request holds none while it is in flight.
    package func trackBundle(
        url location: String, bundle: String, distro: String, flavor: String?, trustedKeys: [PublicKey], writableFiles: Bool,
        options: SyncOptions
    ) async throws -> RepoState.TrackedBundle {
        let url = catalogURL(forLocation: location)
        try Names.validateBundleName(bundle)
        try Names.validateDistroName(distro)
        try flavor.map(Names.validateFlavorName)
        let source = try options.sourceFactory(url)
        return try await withTaskExecutorPreference(SyncEngine.executor) {
            try await withLock(exclusive: true) {
                let chain = SourceChain(catalog: url, sources: [source], temporaryFolder: temporaryFolder)
                var state = try loadState()
                // Checked as a sync checks an index: with trusted keys, nothing of an index
                // they do not sign is used or kept (not its versions, which `status` would
                // show, nor its sources).
                let fetcher = IndexFetcher(repo: self, limit: options.documentLimit)
                var (fetched, index) = try await fetcher.fetchFresh(via: chain, state: state, trustedKeys: trustedKeys)
                _ = try VersionSpec.distro(distro).resolve(in: try index.bundle(bundle), name: bundle)
                if !trustedKeys.isEmpty { state.catalogs[index.id, default: .init()].trustedKeys = trustedKeys }
                // A spelling of a URL already there (a trailing `/`, another case) adds no
                // source: the validators go with the spelling kept, which syncs ask.
                let kept = state.catalogs[index.id, default: .init()].add(url)
                fetched.url = kept
                try fetcher.accept(fetched, as: index.id, into: &state)
                var tracked = RepoState.TrackedBundle(catalog: index.id, bundle: bundle, distro: distro, flavor: flavor)
                tracked.writableFiles = writableFiles
                state.track(tracked)
                try state.save(in: root)
                return state.bundles.first { $0.catalog == index.id && $0.bundle == bundle }!
            }
        }
    }

    /// Stops tracking a bundle and removes its folder and whatever only it used.
    /// - Parameters:
    ///   - catalog: the catalog's id, or any location it was tracked at (as `track` took
    ///     it, in any spelling `track` takes as the same: see `comparableCatalogURL`).
    ///   - bundle: the bundle's name.
    public func untrack(catalog: String, bundle: String) throws(SyncError) {
        do {
            try withLock(exclusive: true) {
                var state = try loadState()
                let url = catalogURL(forLocation: catalog)
                let id =
                    state.catalogs[catalog] != nil ? catalog : state.catalogs.first { $0.value.spelling(of: url) != nil }?.key ?? catalog
                guard let i = state.bundles.firstIndex(where: { $0.catalog == id && $0.bundle == bundle }) else {
                    throw ClientError.notTracked(catalog: id, bundle: bundle)
                }
                let untracked = state.bundles.remove(at: i)
                try GarbageCollector.willBeNeeded(in: self)
                try state.save(in: root)
                // Its rollout file, kept for `status`, is no use to any other bundle.
                unlink(rolloutFile(untracked.catalog, bundle: untracked.bundle, distro: untracked.distro))
                // Removing the folder changes the times of the objects other bundles share:
                // those whose stamps match now are stamped again once it is gone.
                let stamps = StampsAcrossRemoval(repo: self)
                _ = try GarbageCollector(repo: self).collect(state, downloads: true, naming: false)
                Trash(repo: self).empty()
                stamps.save()
            }
        } catch {
            throw SyncError(error, repo: self)
        }
    }
}
