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

    func manifest(catalog: String, bundle: String, version: Int, via chain: SourceChain) async throws
        -> (manifest: Manifest, signedContent: [SHA1.Digest: SHA256.Digest]?)
    {
        if let (manifest, bytes) = try kept(catalog: catalog, bundle: bundle, version: version) {
            return (manifest, try await checks?.checkManifest(manifest, bytes: bytes))
        }
        let remote = VersionFiles(bundle: bundle, version: version).gzippedManifest
        guard let fetched = try await chain.fetchDocument(remote, limit: limit) else {
            throw ClientError.badResponse(url: remote, reason: "answered 304 to a request without a validator")
        }
        let url = catalogFileURL(fetched.url, remote)
        let manifest = try Manifest.parse(fetched.bytes, path: url)
        guard manifest.catalog == catalog, manifest.bundle == bundle, manifest.version == version else {
            throw ClientError.badResponse(
                url: url,
                reason: "describes \(manifest.catalog) \(manifest.bundle)-\(manifest.version), "
                    + "not \(catalog) \(bundle)-\(version)")
        }
        let signedContent = try await checks?.checkManifest(manifest, bytes: fetched.bytes)
        try FileManager.default.createDirectory(atPath: repo.manifestsFolder + "/" + catalog, withIntermediateDirectories: true)
        try AtomicFile.write(fetched.bytes, to: repo.manifestFile(catalog, bundle: bundle, version: version))
        return (manifest, signedContent)
    }

    /// The manifest an earlier run fetched (and checked), and its bytes; nil when there is none.
    func kept(catalog: String, bundle: String, version: Int) throws -> (Manifest, [UInt8])? {
        let local = repo.manifestFile(catalog, bundle: bundle, version: version)
        guard let bytes = try AtomicFile.read(local, limit: limit) else { return nil }
        return (try Manifest.parse(bytes, path: local), bytes)
    }
}
