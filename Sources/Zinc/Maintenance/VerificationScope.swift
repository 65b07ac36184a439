/// Which part of a catalog a ``CatalogVerification`` checks.
public enum VerificationScope: Equatable, Sendable {
    /// Everything: the four index files and every bundle.
    case catalog
    /// One bundle: its distributions and every version.
    case bundle(String)
    /// One version of a bundle.
    case version(bundle: String, VersionSpec)
}
