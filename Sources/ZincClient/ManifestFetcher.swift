import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A version's manifest: from `manifests/<catalog id>/` when an earlier (perhaps
/// interrupted) run fetched it, otherwise from the catalog, checked to describe the
/// version asked for before it is kept. With `checks` (a catalog with trusted keys), the
/// manifest, even one fetched before, is used only with a valid signature, and comes
/// with the SHA-256 its objects' content must have.
struct ManifestFetcher {
    let repo: Repo
    let limit: Int64
    var checks: SignatureChecks?
    /// Requests in flight at once for a manifest delta from a server that answers one
    /// range per request.
    var parallel = 1

    /// With `earlier`, versions of the bundle whose manifests the repo may hold, the first
    /// held one is brought to `version` by a delta (`ManifestDelta`) before the whole is
    /// fetched; a delta that fails in any way, its manifest refused included, costs the
    /// whole manifest. `deltaFallBack` is told why (not when the catalog has no description),
    /// and why a version signature or its digest list was not used (`DigestListFetcher`).
    func manifest(
        catalog: String, bundle: String, version: Int, earlier: [Int] = [], via chain: SourceChain,
        deltaFallBack: (String) -> Void = { _ in }
    ) async throws -> (manifest: Manifest, signedContent: [SHA1.Digest: SHA256.Digest]?) {
        let digests = DigestListFetcher(repo: repo, chain: chain, limit: limit, parallel: parallel, earlier: earlier)
        if let (manifest, bytes) = try kept(catalog: catalog, bundle: bundle, version: version) {
            return (manifest, try await checks?.checkManifest(manifest, bytes: bytes, digests: digests, fallBack: deltaFallBack))
        }
        let held = earlier.lazy.filter { $0 != version }.compactMap {
            try? AtomicFile.read(self.repo.manifestFile(catalog, bundle: bundle, version: $0), limit: self.limit)
        }.first
        if let held {
            let delta = ManifestDelta(repo: repo, chain: chain, limit: limit, parallel: parallel)
            switch await delta.build(catalog: catalog, bundle: bundle, version: version, held: held) {
            case .built(let bytes, let url):
                do {
                    return try await keep(
                        bytes, url: url, catalog: catalog, bundle: bundle, version: version, digests: digests, deltaFallBack)
                } catch {
                    deltaFallBack("\(error)")
                }
            case .fallBack(let reason):
                if let reason { deltaFallBack(reason) }
            }
        }
        let remote = VersionFiles(bundle: bundle, version: version).gzippedManifest
        guard let fetched = try await chain.fetchDocument(remote, limit: limit) else {
            throw ClientError.badResponse(url: remote, reason: "answered 304 to a request without a validator")
        }
        return try await keep(
            fetched.bytes, url: catalogFileURL(fetched.url, remote), catalog: catalog, bundle: bundle, version: version, digests: digests,
            deltaFallBack)
    }

    /// Parses the manifest's plain JSON, checks that it describes the version asked for
    /// (and its signature, by `digests` where it can), and keeps it in the repo.
    private func keep(
        _ bytes: [UInt8], url: String, catalog: String, bundle: String, version: Int, digests: DigestListFetcher,
        _ deltaFallBack: (String) -> Void
    ) async throws
        -> (manifest: Manifest, signedContent: [SHA1.Digest: SHA256.Digest]?)
    {
        let manifest = try Manifest.parse(bytes, path: url)
        guard manifest.catalog == catalog, manifest.bundle == bundle, manifest.version == version else {
            throw ClientError.badResponse(
                url: url,
                reason: "describes \(manifest.catalog) \(manifest.bundle)-\(manifest.version), "
                    + "not \(catalog) \(bundle)-\(version)")
        }
        try FileManager.default.createDirectory(atPath: repo.manifestsFolder + "/" + catalog, withIntermediateDirectories: true)
        // The folder first: a checked digest list is kept in it.
        let signedContent = try await checks?.checkManifest(manifest, bytes: bytes, digests: digests, fallBack: deltaFallBack)
        try AtomicFile.write(bytes, to: repo.manifestFile(catalog, bundle: bundle, version: version))
        return (manifest, signedContent)
    }

    /// The manifest an earlier run fetched (and checked), and its bytes; nil when there is none.
    func kept(catalog: String, bundle: String, version: Int) throws -> (Manifest, [UInt8])? {
        let local = repo.manifestFile(catalog, bundle: bundle, version: version)
        guard let bytes = try AtomicFile.read(local, limit: limit) else { return nil }
        return (try Manifest.parse(bytes, path: local), bytes)
    }
}
