/// What a ``BundleClone`` wrote.
public struct BundleCloneResult: Equatable, Sendable {
    public let version: Int
    /// `<destination>/<catalog id>.<bundle>-<version>[~<flavor>]`, as clients name a bundle.
    public let folder: String
    /// `<folder>.json`, when the manifest was asked for.
    public let manifestFile: String?
    public let fileCount: Int
}
