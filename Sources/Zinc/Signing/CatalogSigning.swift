/// Signs every manifest the index lists that lacks a valid signature by the key, then
/// the index (always, which also moves its expiry), then renews every rollout that
/// applies (signed anew, with a new serial and expiry): `zinc sign`. How a catalog written
/// without a key, or changed by another tool, becomes signed, and how its index signature
/// is renewed before it expires.
///
/// It has no plan (`zinc sign` has no dry run): it decides manifest by manifest, from the
/// signatures it reads, what to sign (a valid signature by the key stays), and always
/// signs the index anew, so ``run(progress:)`` is the whole operation. The index is signed
/// under the writer lock, by compare-and-swap on its signature, and again if
/// `catalog.json` changed meanwhile.
public struct CatalogSigning: Sendable {
    private let catalog: Catalog
    private let signer: CatalogSigner
    private let actor: String

    /// The command that signs the catalog at `location`, quoted: its key comes from
    /// `$ZINC_SIGNING_KEY` (or a `--sign-key` added to it), which no message can know.
    static func hint(for location: String) -> String {
        ShellQuoting.hint(["sign", "--catalog", location])
    }

    /// `actor` is who renews the rollout files, for their log.
    public init(_ catalog: Catalog, signer: CatalogSigner, actor: String = "zinc sign") {
        self.catalog = catalog
        self.signer = signer
        self.actor = actor
    }

    public func run(progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> SigningReport {
        let writer = SignatureWriter(catalog: catalog, signer: signer)
        let index = try catalog.index()
        let listed = index.bundles.sorted { $0.key < $1.key }
        let counter = ProgressCounter<MaintenanceProgress>(
            .signing, totalItems: listed.reduce(0) { $0 + $1.value.versions.count },
            totalBytes: 0, report: progress)
        var (signed, already) = (0, 0)
        for (name, bundle) in listed {
            var known = [SHA1.Digest: SHA256.Digest]()
            for version in bundle.versions {
                if try writer.signManifest(bundle: name, version: version, known: &known) { signed += 1 } else { already += 1 }
                counter.finishedItem(bytes: 0)
            }
        }
        try catalog.storage.flush()
        let signature = try catalog.storage.withWriterLock { try writer.signCurrentIndex(refresh: true) }
        // Rollout files expire as the index signature does, and are signed anew with it.
        let rollouts = try catalog.liveRollouts(in: catalog.index())
        for rollout in rollouts {
            try RolloutUpdate(catalog, bundle: rollout.bundle, distro: rollout.distro, change: .renew, actor: actor).run()
        }
        return SigningReport(
            manifestsSigned: signed, manifestsAlreadySigned: already, index: signature, rolloutsRenewed: rollouts.count)
    }
}
