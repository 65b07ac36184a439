/// What a ``DistroDeletion`` removes from a bundle's entry in the index: its plan, which
/// its run carries out and returns.
public struct DistroDeletionPlan: Equatable, Sendable {
    public let bundle: String
    public let distro: String
    /// The version the distribution points at.
    public let version: Int
    /// The version its previous-version pointer `_distro` keeps, removed with it; nil
    /// when it has none.
    public let previousVersion: Int?
}
