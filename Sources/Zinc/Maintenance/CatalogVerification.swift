/// Checks that everything the index promises is there and intact: manifests, objects
/// (size and SHA-1 of their content), archives (members, bytes, LMFO order),
/// distributions, and the four index files agreeing: `zinc verify`.
///
/// Damage is collected into the report, never thrown; only a scope that names nothing
/// throws. With `trustedKeys`, signatures are checked too, and each object's content
/// against the SHA-256 its manifest's signature records.
///
/// A read-only check, so it has no plan: ``run(progress:)`` is the whole operation, and
/// takes no lock.
public struct CatalogVerification: Sendable {
    private let catalog: Catalog
    private let scope: VerificationScope
    private let trustedKeys: [PublicKey]
    private let workers: Int?

    /// - Parameters:
    ///   - catalog: the catalog to check.
    ///   - scope: what to check: the whole catalog, one bundle or one version.
    ///   - trustedKeys: keys whose signatures are checked; none: signatures are not checked.
    ///   - workers: threads checking objects and archives at once; nil: one per available core.
    public init(_ catalog: Catalog, scope: VerificationScope = .catalog, trustedKeys: [PublicKey] = [], workers: Int? = nil) {
        self.catalog = catalog
        self.scope = scope
        self.trustedKeys = trustedKeys
        self.workers = workers
    }

    public func run(progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> VerificationReport {
        try CatalogVerifier(catalog: catalog, trustedKeys: trustedKeys, workers: workers, progress: progress).run(scope)
    }
}
