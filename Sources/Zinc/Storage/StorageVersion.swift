/// An opaque token naming one version of a stored file: an ETag on S3, the file's
/// identity and change stamp (device, inode, size, mtime and ctime) on a local folder.
/// Locally, two reads return equal tokens only when nothing was committed to the path
/// between them. An S3 ETag is the MD5 of the content, so there a writer that puts back
/// the very same bytes leaves the token as it was; that is harmless for the index,
/// whose compare-and-swap only needs the content it computed from to be current. Each
/// backend says which it is with ``StorageProperties/versionTracking``.
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
