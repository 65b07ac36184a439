import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            return (manifest, try await checkSignature(manifest, bytes: bytes, digests: digests, deltaFallBack))
        }
        let held = earlier.lazy.filter { $0 != version }.compactMap {
            try? AtomicFile.read(self.repo.manifestFile(catalog, bundle: bundle, version: $0), limit: self.limit)
        }.first
        let part = try TemporaryFile(in: repo.temporaryFolder, named: "manifest")
        defer { part.remove() }
        if let held {
            let delta = ManifestDelta(repo: repo, chain: chain, limit: limit, parallel: parallel)
            switch await delta.build(catalog: catalog, bundle: bundle, version: version, held: held) {
            case .built(let bytes, let url):
                do {
                    try part.file.write(bytes)
                    return try await keep(
                        part.path, gzipped: false, url: url, catalog: catalog, bundle: bundle, version: version, digests: digests,
                        deltaFallBack)
                } catch {
                    deltaFallBack("\(error)")
                }
            case .fallBack(let reason):
                if let reason { deltaFallBack(reason) }
            }
        }
        let remote = VersionFiles(bundle: bundle, version: version).gzippedManifest
        guard let fetched = try await chain.fetchDocument(remote, into: part, limit: limit) else {
            throw ClientError.badResponse(url: remote, reason: "answered 304 to a request without a validator")
        }
        return try await keep(
            part.path, gzipped: true, url: fetched.location, catalog: catalog, bundle: bundle, version: version, digests: digests,
            deltaFallBack)
    }

    /// Reads the manifest in `file` as a stream (gunzipping it when `gzipped`), copying
    /// its plain JSON into the repo as it goes; checks that it describes the version asked
    /// for (and its signature, by `digests` where it can) before the copy takes the kept
    /// manifest's name.
    private func keep(
        _ file: String, gzipped: Bool, url: String, catalog: String, bundle: String, version: Int, digests: DigestListFetcher,
        _ deltaFallBack: (String) -> Void
    ) async throws
        -> (manifest: Manifest, signedContent: [SHA1.Digest: SHA256.Digest]?)
    {
        try FileManager.default.createDirectory(atPath: repo.manifestsFolder + "/" + catalog, withIntermediateDirectories: true)
        let kept = repo.manifestFile(catalog, bundle: bundle, version: version)
        let temporary = AtomicFile.temporaryName(for: kept)
        defer { unlink(temporary) }
        let copy = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
        let manifest = try Manifest.parse(StreamedDocument(path: file, name: url, gzipped: gzipped) { try copy.write($0) })
        guard manifest.catalog == catalog, manifest.bundle == bundle, manifest.version == version else {
            throw ClientError.badResponse(
                url: url,
                reason: "describes \(manifest.catalog) \(manifest.bundle)-\(manifest.version), "
                    + "not \(catalog) \(bundle)-\(version)")
        }
        // A signature covers the manifest's bytes: only a signed catalog holds them whole.
        let bytes = try checks.map { _ in try AtomicFile.read(temporary, limit: StreamedDocument.absoluteLimit) ?? [] }
        // After the folder exists: a checked digest list is kept in it.
        let signedContent = try await checkSignature(manifest, bytes: bytes, digests: digests, deltaFallBack)
        try AtomicFile.install(copy, over: kept)
        return (manifest, signedContent)
    }

    private func checkSignature(
        _ manifest: Manifest, bytes: [UInt8]?, digests: DigestListFetcher, _ deltaFallBack: (String) -> Void
    ) async throws -> [SHA1.Digest: SHA256.Digest]? {
        guard let checks, let bytes else { return nil }
        return try await checks.checkManifest(manifest, bytes: bytes, digests: digests, fallBack: deltaFallBack)
    }

    /// The manifest an earlier run fetched (and checked), read as a stream, and, in a
    /// signed catalog, its bytes; nil when there is none.
    func kept(catalog: String, bundle: String, version: Int) throws -> (Manifest, [UInt8]?)? {
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version) else { return nil }
        let manifest = try Manifest.parse(document)
        let bytes = try checks.map { _ in try AtomicFile.read(document.name, limit: StreamedDocument.absoluteLimit) ?? [] }
        return (manifest, bytes)
    }
}
