extension CatalogVerifier {
    /// `verify --trusted-key`: the index signature (for the whole catalog) and the
    /// signature of each manifest checked, by one of the trusted keys. Records each
    /// object's signed SHA-256 for the object checks that follow. Problems are reported:
    /// a manifest or index without a signature as unsigned, one whose signature does not
    /// match as tampered, an index signature past its expiry as expired.
    func checkSignatures(of manifests: [Manifest], index: Bool) {
        let storage = catalog.storage
        let sign = CatalogSigning.hint(for: storage.location)
        if index { checkIndexSignature() }
        for manifest in manifests {
            let candidates = trustedKeys.map { ManifestSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: $0.id) }
            do {
                guard let (path, bytes) = try candidates.lazy.compactMap({ path in try storage.read(path).map { (path, $0) } }).first else {
                    report(manifest.path, "unsigned: no signature by a trusted key (run \(sign))")
                    continue
                }
                let signature = try ManifestSignature.verified(bytes, path: path, trusted: trustedKeys)
                let plain = try catalog.manifestBytes(bundle: manifest.bundle, version: manifest.version).bytes
                try signature.check(covers: manifest, bytes: plain, path: manifest.path)
                for (sha1, sha256) in signature.objects {
                    if let other = recordSignedContent(sha256, of: sha1), other != sha256 {
                        report(path, "records SHA-256 \(sha256) for object \(sha1), another signature records \(other)")
                    }
                }
                checkVersionSignatures(of: manifest, plain: plain, objects: signature.objects)
            } catch {
                report(candidates.first ?? manifest.path, Self.describe(error))
            }
        }
    }

    /// The version signatures by trusted keys (none in a catalog signed before them): each
    /// covers the manifest and a digest list holding exactly `objects`, the manifest
    /// signature's, whose chunk description makes it.
    private func checkVersionSignatures(of manifest: Manifest, plain: [UInt8], objects: [SHA1.Digest: SHA256.Digest]) {
        let files = VersionFiles(of: manifest)
        for key in trustedKeys {
            let path = VersionSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: key.id)
            let signature: VersionSignature
            do {
                guard let bytes = try catalog.storage.read(path) else { continue }
                signature = try VersionSignature.verified(bytes, path: path, trusted: trustedKeys)
                try signature.check(covers: manifest, bytes: plain, path: manifest.path)
            } catch {
                report(path, Self.describe(error))
                continue
            }
            do {
                guard let list = try catalog.readDigestList(bundle: manifest.bundle, version: manifest.version) else {
                    report(files.digestList, "missing, though \(path) covers it")
                    continue
                }
                guard try signature.objects(of: list, for: manifest, path: files.digestList) == objects else {
                    report(files.digestList, "records other SHA-256s than the manifest signature")
                    continue
                }
                record(
                    ManifestChunksCheck(catalog: catalog).problems(at: files.digestListChunks, of: files.digestList, plain: list) {
                        try catalog.readDigestListChunks(bundle: manifest.bundle, version: manifest.version)
                    } stored: {
                        try catalog.storage.read($0)
                    })
            } catch {
                report(files.digestList, Self.describe(error))
            }
        }
    }

    private func checkIndexSignature() {
        let path = IndexSignature.path
        let sign = CatalogSigning.hint(for: catalog.storage.location)
        do {
            let current = try catalog.readIndex()
            guard let bytes = try catalog.storage.read(path) else {
                return report(path, "missing: the index is unsigned (run \(sign))")
            }
            let signature = try IndexSignature.verified(bytes, path: path, trusted: trustedKeys)
            if signature.catalog != current.index.id {
                report(path, "is for catalog '\(signature.catalog)', not '\(current.index.id)'")
            }
            if signature.indexSHA256 != SHA256.digest(current.bytes) {
                report(
                    path,
                    "covers another index than catalog.json holds: the index is unsigned (changed by a tool "
                        + "that does not sign, or tampered) until \(sign)")
            }
            let now = WallClock.nowMilliseconds() / 1000
            if signature.isExpired(at: now) {
                report(path, "expired \(now - signature.expiresAt) seconds ago: clients refuse the index until \(sign)")
            }
        } catch {
            report(path, Self.describe(error))
        }
    }
}
