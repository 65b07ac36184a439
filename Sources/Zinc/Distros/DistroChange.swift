/// What a ``DistroUpdate`` does to a distribution: its plan, which its run carries out
/// and returns.
public enum DistroChange: Equatable, Sendable {
    case created(version: Int)
    case updated(version: Int, previous: Int)
    /// The distro already pointed at that version; nothing changed.
    case unchanged(version: Int)
}
