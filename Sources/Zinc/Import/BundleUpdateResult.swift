/// Whether an import made a new version, or found its content already the latest
/// version's (unless forced).
public enum BundleUpdateResult: Equatable, Sendable {
    case created(version: Int)
    case unchanged(version: Int)
}
