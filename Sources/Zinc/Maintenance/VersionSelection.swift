/// How `delete_bundle` names versions: anything `VersionSpec` takes (a number, `latest`,
/// `@DISTRO`), `all`, or `unreferenced` (the versions no distro or `_prev` pointer names).
/// The Python tool's `:all`, `:unreferenced` and `:latest` work too.
public enum VersionSelection: Equatable, Sendable {
    case spec(VersionSpec)
    case all
    case unreferenced
    /// Every version but the newest `count`, except those a distribution (or `_DISTRO`
    /// pointer) names: what `prune --keep-last` deletes.
    case beyondNewest(Int)

    public init(_ text: String) throws {
        switch text {
        case "all", ":all": self = .all
        case "unreferenced", ":unreferenced": self = .unreferenced
        default: self = .spec(try VersionSpec(text))
        }
    }
}
