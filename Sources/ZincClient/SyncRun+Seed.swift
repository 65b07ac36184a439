import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a seed run (`Repo.seed`) needs: the seed folder, and how the bundle is tracked
/// afterwards.
package struct SeedRequest: Sendable {
    let seed: SeedReader
    /// Where later syncs fetch the catalog, added to the repo's sources for it.
    let sources: [String]
    let distro: String
    /// The catalog's trusted keys from now on; none keeps the repo's.
    let trustedKeys: [PublicKey]
    let hashing: SeedHashing
    let writableFiles: Bool
}

/// What a seed run did, from which its `SeedResult` is made.
struct SeedOutcome {
    /// The objects the seed folder's claim placed, and their bytes, by how.
    var count: [FileClone.Method: Int] = [:]
    var bytes: [FileClone.Method: Int64] = [:]
    /// The version's distinct objects (of the flavor), and its files.
    var objects = 0
    var files = 0
    /// Whether the seed's files are hashed before they are placed.
    var hashed = false
    var switched = false

    var placed: Int { count.values.reduce(0, +) }
}

extension SyncRun {
    /// A seed run's one bundle: the seed's index checked as a sync checks one (its
    /// signature's expiry aside), the bundle tracked, and, unless the repo holds the seed's
    /// version or a newer one, that version planned as a sync plans one (the repo's
    /// objects first, then the seed folder's files: `claimSeed`), built by the run's
    /// checkout (from the spare folder where the bundle has one) and switched to; the
    /// run's `finish` then collects and stamps as after a sync.
    mutating func seed(_ request: SeedRequest) async throws {
        let seed = request.seed
        let catalog = seed.description.catalog
        let keys = request.trustedKeys.isEmpty ? state.catalogs[catalog]?.trustedKeys ?? [] : request.trustedKeys
        let (fetched, index) = try await seed.index(
            distro: request.distro, keys: keys, state: state, in: repo, limit: options.documentLimit)
        var sources = state.catalogs[catalog] ?? .init()
        for url in request.sources { sources.add(url) }
        if !request.trustedKeys.isEmpty { sources.trustedKeys = request.trustedKeys }
        state.catalogs[catalog] = sources
        // As `track` does: the version checked out stays when the flavor does.
        var tracking = RepoState.TrackedBundle(
            catalog: catalog, bundle: seed.description.bundle, distro: request.distro, flavor: seed.description.flavor)
        tracking.writableFiles = request.writableFiles
        let i = state.track(tracking)
        let tracked = state.bundles[i]
        let version = seed.description.version
        let checks = keys.isEmpty ? nil : SignatureChecks(catalog: catalog, keys: keys, chain: seed.chain)
        var result = SyncReport.BundleSync(
            catalog: catalog, bundle: tracked.bundle, flavor: tracked.flavor, previousVersion: tracked.version)
        if let held = tracked.version, held >= version,
            access(repo.bundlePath(catalog: catalog, bundle: tracked.bundle, version: held, flavor: tracked.flavor), F_OK) == 0
        {
            // A seed never replaces newer content with older: its manifest is checked and
            // counted, nothing placed. The manifest read stays for the collection.
            try GarbageCollector.willBeNeeded(in: repo)
            let manifest = try await ManifestFetcher(repo: repo, limit: options.documentLimit, checks: checks).manifest(
                catalog: catalog, bundle: tracked.bundle, version: version, via: seed.chain)
            try manifest.header.requireFlavor(tracked.flavor)
            seeded.files = try manifest.files.fileCount(flavor: tracked.flavor)
            try state.save(in: repo.root)
            return
        }
        seeded.hashed = request.hashing == .always || !keys.isEmpty
        let below = try? index.bundle(tracked.bundle).versions.filter { $0 < version }.max()
        // Never nil: a version the repo holds with its folder was kept above.
        guard
            let update = try await prepare(
                tracked, to: version, forced: nil, follows: below != nil && below == tracked.version, chain: seed.chain,
                checks: checks, result: &result)
        else { return }
        seeded.files = update.fileCount
        seeded.objects = update.objects.count
        await emptying.value  // the trash's space free before the checkout needs any
        try await execute(update, bundle: i, chain: seed.chain, result: &result)
        // Kept as a sync keeps an index, unless the repo accepted a newer signed one already.
        try IndexFetcher(repo: repo, limit: options.documentLimit).accept(fetched, as: catalog, into: &state, policy: .seed)
        try state.save(in: repo.root)  // the switch
        try CurrentLinks.point(state.bundles[i], at: version, in: repo)
        seeded.switched = true
    }

    /// A seed run's claim, after the repo's objects: each of `missing` (sorted by digest)
    /// placed into objects/ from a file of the seed folder that holds it, without storing
    /// its bytes again where the file system allows (`FileClone`), hashed first when the
    /// run hashes (against `signedContent` in a signed catalog), each on its own core.
    /// They leave `missing`; any other run's claim takes nothing. Each is vouched for as it
    /// is placed with `vouching`; without, the folder built whole vouches for every object
    /// at the run's end, where a verdict for each, given in path order, took 48 MB at
    /// 1,000,000 objects.
    mutating func claimSeed(
        _ missing: inout [StoredObject], files: VersionTable, flavor: String?, signedContent: [SHA1.Digest: SHA256.Digest]?,
        vouching: Bool
    ) throws {
        guard case .seed(let request) = mode, !missing.isEmpty else { return }
        // One file per object (the others with the same content are the same bytes), the
        // first in path order, found as the version's rows stream by and placed a batch at
        // a time: a byte an object and a batch of paths, where a row an object (4 bytes,
        // and the version's table held to make its path) was held before.
        let wanted = missing
        var claimed = [Bool](repeating: false, count: wanted.count)
        var batch = [(object: Int, path: String)]()
        let (repo, hashing) = (repo, seeded.hashed)
        func place() throws {
            try options.cancellation?.check()
            let placed = try parallelMap(count: batch.count, workers: nil) { [batch] j in
                let (object, path) = (wanted[batch[j].object], batch[j].path)
                return try request.seed.place(
                    object, from: path, into: repo, hashing: hashing,
                    signedSHA256: ObjectVerifier.signedSHA256(of: object, in: signedContent, origin: path))
            }
            for ((object, _), (method, size)) in zip(batch, placed) {
                seeded.count[method, default: 0] += 1
                seeded.bytes[method, default: 0] += size
                if vouching { check.vouch(for: wanted[object].digest) }
            }
            batch.removeAll(keepingCapacity: true)
        }
        var rows = try files.rows(flavor: flavor)
        while try rows.next() {
            let digest = rows.object.digest
            let at = wanted.partitionPoint { $0.digest < digest }
            guard at < wanted.count, wanted[at].digest == digest, !claimed[at] else { continue }
            claimed[at] = true
            batch.append((at, String(decoding: rows.path, as: UTF8.self)))
            if batch.count == Self.seedBatch { try place() }
        }
        try place()
        // The seed's files arrive without the hashing that records their chunks.
        if claimed.contains(true) { LocalChunks.objectsArrivedUnrecorded(in: repo) }
        missing = wanted.indices.filter { !claimed[$0] }.map { wanted[$0] }
    }

    /// The seed's files placed at once: enough to keep every core busy, few paths held.
    private static let seedBatch = 4096

    /// What the seed run of `request` did, once it has run.
    func seedResult(_ request: SeedRequest) -> SeedResult {
        let description = request.seed.description
        let tracked = state.bundles.first { $0.catalog == description.catalog && $0.bundle == description.bundle }
        return SeedResult(
            catalog: description.catalog, bundle: description.bundle, version: description.version, flavor: description.flavor,
            distro: request.distro, files: seeded.files, linkedObjects: seeded.count[.linked, default: 0],
            clonedObjects: seeded.count[.cloned, default: 0], copiedObjects: seeded.count[.copied, default: 0],
            linkedBytes: seeded.bytes[.linked, default: 0], clonedBytes: seeded.bytes[.cloned, default: 0],
            copiedBytes: seeded.bytes[.copied, default: 0], presentObjects: seeded.switched ? seeded.objects - seeded.placed : 0,
            hashed: seeded.hashed, switched: seeded.switched, checkedOutVersion: tracked?.version ?? description.version)
    }
}
