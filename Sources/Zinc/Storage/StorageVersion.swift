/// An opaque token naming one version of a stored file: an ETag on S3, the file's
/// identity and change stamp (device, inode, size, mtime and ctime) on a local folder.
/// Two reads return equal tokens only when nothing was committed to the path between
/// them, which is what a compare-and-swap (`WriteCondition.ifMatch`) needs; the bytes
/// themselves would not do, since a writer may put back the same bytes in between.
public struct StorageVersion: Hashable, Sendable, CustomStringConvertible {
    public let token: String

    public init(_ token: String) {
        self.token = token
    }

    public var description: String { token }
}

/// A file's bytes and the version they were read at.
public struct VersionedContent: Equatable, Sendable {
    public let bytes: [UInt8]
    public let version: StorageVersion

    public init(bytes: [UInt8], version: StorageVersion) {
        self.bytes = bytes
        self.version = version
    }
}
