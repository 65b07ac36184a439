/// Signing on the commit path (`IndexCommit`, and `checkUnsignedChangeAllowed` for
/// writers before their first write). The order follows FORMAT.md's write order: a
/// manifest's signature after the manifest (and flushed) and before an index lists its
/// version; the index signature before the index it covers. The index signature is replaced by
/// compare-and-swap on its own version, so of two signing writers racing, one retries;
/// and after each commit the signature is made to follow `catalog.json` again, as the
/// index copies do. A writer killed between its signature and its commit leaves a
/// signature of an index never committed: clients then treat the catalog as unsigned
/// until the next signed change (or `zinc sign`).
struct CommitSigning {
    let catalog: Catalog

    /// Before `updated` (encoded as `bytes`) replaces `previous` as the index: signs the
    /// manifests of the versions it newly lists or newly points a distribution at (one
    /// imported unsigned, then promoted by a signing writer, would otherwise be refused
    /// by every client that trusts the key), then the index. False when another writer
    /// replaced the index signature meanwhile (the caller reads again and retries).
    func signBeforeCommit(_ updated: CatalogIndex, bytes: [UInt8], replacing previous: CatalogIndex?) throws -> Bool {
        guard let signer = catalog.signer else {
            try checkUnsignedChangeAllowed()
            return true
        }
        let writer = SignatureWriter(catalog: catalog, signer: signer)
        var wrote = false
        for (name, bundle) in updated.bundles.sorted(by: { $0.key < $1.key }) {
            let before = previous?.bundles[name]
            // `_name` pointers only keep a version for a rollback, which signs it then.
            let pointedAt = bundle.distributions.filter { !$0.key.hasPrefix("_") && before?.distributions[$0.key] != $0.value }.values
            let versions = Set(bundle.versions.filter { !(before?.versions.contains($0) ?? false) } + pointedAt)
            for version in versions.sorted() where bundle.versions.contains(version) {
                var known = try writer.earlierContentDigests(bundle: name, below: version, versions: bundle.versions)
                wrote = try writer.signManifest(bundle: name, version: version, known: &known) || wrote
            }
        }
        if wrote { try catalog.storage.flush() }
        return try writer.writeIndexSignature(covering: bytes, catalog: updated.id) != nil
    }

    /// Refuses, before anything is written, a change this catalog would leave unsigned
    /// though it is signed, unless unsigned changes were allowed.
    func checkUnsignedChangeAllowed() throws {
        guard catalog.signer == nil, !catalog.allowsUnsignedChanges, try catalog.storage.exists(IndexSignature.path) else { return }
        throw ZincError.signedCatalogNeedsSigner(catalog.storage.location)
    }

    /// After a commit: another signing writer may have replaced the index signature
    /// between this writer's signature and its commit, so it follows `catalog.json` again.
    /// A writer allowed to change a signed catalog unsigned says, when its commit is the
    /// one that left the signature behind (`previous`, the index it replaced, was the
    /// one signed), how to sign it again.
    func signatureFollowsCommit(replacing previous: [UInt8]) throws {
        guard let signer = catalog.signer else {
            guard catalog.allowsUnsignedChanges, let bytes = try catalog.storage.read(IndexSignature.path),
                let signature = try? IndexSignature.parseUnverified(bytes, path: IndexSignature.path),
                signature.indexSHA256 == SHA256.digest(previous)
            else { return }
            let location = catalog.storage.location
            catalog.logger.warning(
                "the index of '\(location)' is now unsigned: clients that trust its key refuse it until \(CatalogSigning.hint(for: location)) signs it again"
            )
            return
        }
        _ = try SignatureWriter(catalog: catalog, signer: signer).signCurrentIndex(refresh: false)
    }
}
