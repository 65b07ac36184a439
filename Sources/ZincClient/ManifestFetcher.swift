#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zinc

/// A version's manifest: from `manifests/<catalog id>/` when an earlier (perhaps
/// interrupted) run fetched it, otherwise from the catalog, checked to describe the
/// version asked for before it is kept.
struct ManifestFetcher {
    let repo: Repo
    let limit: Int64

    func manifest(catalog: String, bundle: String, version: Int, via chain: SourceChain) throws -> Manifest {
        let local = repo.manifestFile(catalog, bundle: bundle, version: version)
        if let bytes = try AtomicFile.read(local, limit: limit) { return try Manifest.parse(bytes, path: local) }
        let remote = Manifest.path(bundle: bundle, version: version) + ".gz"
        guard let fetched = try chain.fetchDocument(remote, limit: limit) else {
            throw ClientError.badResponse(url: remote, reason: "answered 304 to a request without a validator")
        }
        let url = fetched.url + "/" + remote
        let manifest = try Manifest.parse(fetched.bytes, path: url)
        guard manifest.catalog == catalog, manifest.bundle == bundle, manifest.version == version else {
            throw ClientError.badResponse(url: url, reason: "describes \(manifest.catalog) \(manifest.bundle)-\(manifest.version), "
                                          + "not \(catalog) \(bundle)-\(version)")
        }
        try FileManager.default.createDirectory(atPath: repo.manifestsFolder + "/" + catalog, withIntermediateDirectories: true)
        try AtomicFile.write(fetched.bytes, to: local)
        return manifest
    }
}
