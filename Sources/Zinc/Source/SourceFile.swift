#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file of a source tree, as it will appear in a manifest.
public struct SourceFile: Equatable, Sendable {
    /// The manifest path: relative to the source root, `/`-separated, valid UTF-8.
    public let relativePath: String
    /// The resolved source root, one string shared by every file of a scan.
    let root: String
    /// A symlink's resolved target, for links to files inside the tree.
    let linkTarget: String?
    /// Identity and change stamps of the file read, for the stat cache.
    public let stamp: FileStamp

    public var size: Int64 { stamp.size }

    /// Where to read the content. Derived rather than stored: a scan of 100,000 files
    /// would otherwise hold the root prefix 100,000 times.
    public var absolutePath: String { linkTarget ?? root + "/" + relativePath }
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

extension FileStamp {
    /// What `stat` says about the open `file` now.
    package init(of file: PosixFile) throws {
        self.init(try file.status())
    }

    init(_ st: stat) {
        self.init(
            size: Int64(st.st_size),
            mtimeNanoseconds: st.modificationTime.nanoseconds,
            ctimeNanoseconds: st.statusChangeTime.nanoseconds,
            // Darwin's dev_t is a signed Int32 (negative for a major number above 127),
            // Linux's a UInt64: the bits are the identity, so no conversion may trap.
            inode: UInt64(st.st_ino), device: UInt64(truncatingIfNeeded: st.st_dev))
    }
}
