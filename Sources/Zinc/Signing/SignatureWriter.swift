/// Writes signatures by one key into a catalog: a manifest's, with the SHA-256 of each
/// object's content, and the index's, by compare-and-swap on its own version. Used on the
/// commit path (`CommitSigning`) and by `zinc sign` (`CatalogSigning`).
struct SignatureWriter {
    let catalog: Catalog
    let signer: CatalogSigner

    private var storage: CatalogStorage { catalog.storage }

    // MARK: Manifests

    /// Writes the signatures of one version by `signer`'s key unless valid ones are there
    /// (a damaged one is replaced): the manifest signature, then the digest list and its
    /// chunk description, durable before the version signature that covers them.
    /// `known` holds content digests already computed (or read from signatures of earlier
    /// versions) and receives this version's. Returns whether it wrote any.
    func signManifest(bundle: String, version: Int, known: inout [SHA1.Digest: SHA256.Digest]) throws -> Bool {
        let key = signer.key.publicKey
        let path = ManifestSignature.path(bundle: bundle, version: version, keyID: key.id)
        let (bytes, manifestPath) = try catalog.manifestBytes(bundle: bundle, version: version)
        let manifest = try Manifest.parse(bytes, path: manifestPath)
        if let existing = try storage.read(path),
            let signature = try? ManifestSignature.verified(existing, path: path, trusted: [key]),
            (try? signature.check(covers: manifest, bytes: bytes, path: path)) != nil
        {
            known.merge(signature.objects) { first, _ in first }
            return try signVersion(of: signature, manifest: manifest)
        }
        let objects = Array(Set(manifest.files.values.map(\.object)))
        let missing = objects.filter { known[$0.digest] == nil }
        let digests = try parallelMap(count: missing.count, workers: storage.properties.parallelRequests) {
            try contentSHA256(of: missing[$0])
        }
        for (object, digest) in zip(missing, digests) { known[object.digest] = digest }
        let signature = ManifestSignature(
            catalog: manifest.catalog, bundle: bundle, version: version,
            manifestSHA256: SHA256.digest(bytes),
            objects: Dictionary(uniqueKeysWithValues: Set(objects.map(\.digest)).map { ($0, known[$0]!) }))
        try storage.write(signature.encoded(signedBy: signer.key), to: path)
        _ = try signVersion(of: signature, manifest: manifest)
        return true
    }

    /// Writes the digest list of `manifest` from the digests of its manifest signature
    /// `signed`, with the list's description, and the version signature covering both by
    /// `signer`'s key, each unless already there as it would be written. Returns whether
    /// it wrote the signature.
    private func signVersion(of signed: ManifestSignature, manifest: Manifest) throws -> Bool {
        let key = signer.key.publicKey
        let files = VersionFiles(of: manifest)
        let list = DigestList(objects: signed.objects, of: manifest).encoded()
        let (gzipped, description) = try ManifestChunks.deflated(list, file: files.digestList)
        let described = GzipCompressor.compress(description.encoded())
        var wrote = false
        for (bytes, path) in [(gzipped, files.digestList), (described, files.digestListChunks)] {
            guard try storage.read(path) != bytes else { continue }
            try storage.write(bytes, to: path)
            wrote = true
        }
        if wrote { try storage.flush() }
        let signature = VersionSignature(
            catalog: manifest.catalog, bundle: manifest.bundle, version: manifest.version, manifestSHA256: signed.manifestSHA256,
            files: manifest.files.count, digestsSHA256: description.sha256)
        let path = VersionSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: key.id)
        if let existing = try storage.read(path),
            (try? VersionSignature.verified(existing, path: path, trusted: [key])) == signatureByKey(signature)
        {
            return false
        }
        try storage.write(signature.encoded(signedBy: signer.key), to: path)
        return true
    }

    /// `signature` as `verified` returns it once signed by `signer`'s key.
    private func signatureByKey(_ signature: VersionSignature) -> VersionSignature {
        var signed = signature
        signed.keyID = signer.key.publicKey.id
        return signed
    }

    /// The content digests the key's signature of the newest version below `version`
    /// holds: a new version shares most objects with it, and those need not be read again.
    func earlierContentDigests(bundle: String, below version: Int, versions: [Int]) throws -> [SHA1.Digest: SHA256.Digest] {
        let key = signer.key.publicKey
        guard let earlier = versions.filter({ $0 < version }).max() else { return [:] }
        let path = ManifestSignature.path(bundle: bundle, version: earlier, keyID: key.id)
        guard let bytes = try storage.read(path), let signature = try? ManifestSignature.verified(bytes, path: path, trusted: [key]) else {
            return [:]
        }
        return signature.objects
    }

    /// The SHA-256 of an object's content, read back from the catalog; its SHA-1 is
    /// checked on the way, so a damaged object is never signed.
    private func contentSHA256(of object: StoredObject) throws -> SHA256.Digest {
        let path = object.preferredPath
        let location = storage.location + "/" + path
        guard let reader = try storage.openForReading(path) else {
            throw ZincError.integrity(path: location, reason: "missing, so the manifests naming it cannot be signed")
        }
        let hasher = SHA256()
        let decoder = StoredObjectDecoder(format: object.preferredFormat) { hasher.update($0) }
        let sha: String
        do {
            try reader.forEachChunk { try decoder.update($0) }
            sha = try decoder.finish()
        } catch let failure as GzipDecompressor.Failure {
            throw ZincError.integrity(path: location, reason: "\(failure); not signed")
        }
        guard sha == object.sha else {
            throw ZincError.integrity(path: location, reason: "its content hashes to \(sha), not to its name; not signed")
        }
        return hasher.finalize()
    }

    // MARK: The index

    /// Replaces the index signature with one covering `bytes`, by compare-and-swap on the
    /// signature's own version; false when another writer replaced it first. The
    /// sequence number is one more than the replaced signature's, and at least the time
    /// in milliseconds, so it keeps growing even past a lost or damaged signature.
    func writeIndexSignature(covering bytes: [UInt8], catalog id: String) throws -> IndexSignature? {
        let current = try storage.readVersioned(IndexSignature.path)
        let previous = current.flatMap { try? IndexSignature.parse($0.bytes, path: IndexSignature.path).0 }
        let now = WallClock.nowMilliseconds()
        let sequence = max((previous?.sequence ?? 0) + 1, now)
        guard IndexSignature.sequenceRange.contains(sequence) else {
            throw ZincError.signature(
                path: storage.location + "/" + IndexSignature.path,
                reason: "its sequence number \(sequence) is past the largest allowed")
        }
        let signedAt = now / 1000
        var signature = IndexSignature(
            catalog: id, sequence: sequence, signedAt: signedAt,
            expiresAt: signedAt + signer.validity.components.seconds, indexSHA256: SHA256.digest(bytes))
        let condition: WriteCondition = current.map { .ifMatch($0.version) } ?? .ifAbsent
        guard try storage.write(signature.encoded(signedBy: signer.key), to: IndexSignature.path, condition) == .written else {
            return nil
        }
        try storage.flush()
        signature.keyID = signer.key.publicKey.id
        return signature
    }

    /// Makes the index signature cover what `catalog.json` holds now: when `refresh`,
    /// always with a new signature; otherwise only when it covers something else.
    /// Returns the signature in place.
    func signCurrentIndex(refresh: Bool) throws -> IndexSignature {
        let key = signer.key.publicKey
        for attempt in 0..<Catalog.indexAttempts {
            let current = try catalog.readIndex()
            guard current.version != nil else {
                // A legacy catalog: its commit point appears first, and is what gets signed.
                try catalog.repairCopies(of: current)
                continue
            }
            if !(refresh && attempt == 0), let bytes = try storage.read(IndexSignature.path),
                let signature = try? IndexSignature.verified(bytes, path: IndexSignature.path, trusted: [key]),
                signature.indexSHA256 == SHA256.digest(current.bytes)
            {
                return signature
            }
            if let signature = try writeIndexSignature(covering: current.bytes, catalog: current.index.id),
                try storage.read(Catalog.commitPoint) == current.bytes
            {
                return signature
            }
        }
        throw ZincError.indexChangedWhileSigning(location: storage.location)
    }
}
