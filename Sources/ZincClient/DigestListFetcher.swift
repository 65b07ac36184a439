import Zinc

/// The SHA-256 of a version's objects' content through its version signature
/// (`VersionSignature`), which covers the version's digest list (`DigestList`) by its
/// SHA-256: the list the repo kept of this version, else one made by a delta
/// (`ManifestDelta`) from the list it kept of an earlier version of the bundle, else the
/// whole list. The list used is kept beside the version's manifest for the next update.
///
/// Every list is checked against the signature (its SHA-256, then exactly the manifest's
/// objects) before use: a delta found wrong costs the whole list, and a whole list found
/// wrong costs the version signature (the caller falls back to the manifest signature),
/// never a wrong digest.
struct DigestListFetcher {
    let repo: Repo
    let chain: SourceChain
    /// The most bytes the list, its description or its ranges may take.
    let limit: Int64
    /// Requests in flight at once for a delta from a server that answers one range per request.
    let parallel: Int
    /// Versions of the bundle whose lists the repo may hold, the preferred first.
    let earlier: [Int]

    /// The objects `signature` signs for `manifest` (which it was checked to cover), or nil
    /// after telling `fallBack` why the list could not be had.
    func objects(signedBy signature: VersionSignature, for manifest: Manifest, fallBack: (String) -> Void) async throws
        -> [SHA1.Digest: SHA256.Digest]?
    {
        let (catalog, bundle, version) = (manifest.catalog, manifest.bundle, manifest.version)
        let files = VersionFiles(of: manifest)
        let local = repo.digestListFile(catalog, bundle: bundle, version: version)
        if let kept = try? AtomicFile.read(local, limit: limit), let objects = try? signature.objects(of: kept, for: manifest, path: local)
        {
            return objects
        }
        let held = earlier.lazy.filter { $0 != version }.compactMap {
            try? AtomicFile.read(self.repo.digestListFile(catalog, bundle: bundle, version: $0), limit: self.limit)
        }.first
        if let held {
            let delta = ManifestDelta(repo: repo, chain: chain, limit: limit, parallel: parallel)
            switch await delta.build(
                files.digestListChunks, files: [files.digestList], held: held, part: "\(catalog).\(bundle)-\(version).digests")
            {
            case .built(let bytes, let url):
                do { return try keep(bytes, objects: signature.objects(of: bytes, for: manifest, path: url), at: local) } catch {
                    fallBack("\(error)")
                }
            case .fallBack(let reason):
                if let reason { fallBack(reason) }
            }
        }
        do {
            guard let fetched = try await chain.fetchDocument(files.digestList, limit: limit) else {
                throw ClientError.badResponse(url: files.digestList, reason: "answered 304 to a request without a validator")
            }
            let url = catalogFileURL(fetched.url, files.digestList)
            return try keep(fetched.bytes, objects: signature.objects(of: fetched.bytes, for: manifest, path: url), at: local)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            fallBack("\(error)")
            return nil
        }
    }

    private func keep(_ bytes: [UInt8], objects: [SHA1.Digest: SHA256.Digest], at path: String) throws -> [SHA1.Digest: SHA256.Digest] {
        try AtomicFile.write(bytes, to: path)
        return objects
    }
}
