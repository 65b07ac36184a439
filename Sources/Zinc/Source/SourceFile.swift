/// One file of a source tree, as it will appear in a manifest.
public struct SourceFile: Equatable, Sendable {
    /// The manifest path: relative to the source root, `/`-separated, valid UTF-8.
    public let relativePath: String
    /// Where to read the content (a symlink's resolved target for links inside the tree).
    public let absolutePath: String
    public let size: Int64
    /// Identity and change stamps of the file read, for the stat cache.
    public let stamp: FileStamp
}

/// What `stat` says about a file: enough to tell, without reading it, that it has not
/// changed since it was last hashed.
public struct FileStamp: Equatable, Hashable, Sendable, Codable {
    public let size: Int64
    public let mtimeNanoseconds: Int64
    public let ctimeNanoseconds: Int64
    public let inode: UInt64
    public let device: UInt64
}
