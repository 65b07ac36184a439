#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file of a source tree, as it will appear in a manifest.
package struct SourceFile: Equatable, Sendable {
    /// The manifest path: relative to the source root, `/`-separated, valid UTF-8.
    package let relativePath: String
    /// The resolved source root, one string shared by every file of a scan.
    let root: String
    /// A symlink's resolved target, for links to files inside the tree.
    let linkTarget: String?
    /// Identity and change stamps of the file read, for the stat cache.
    package let stamp: FileStamp

    package var size: Int64 { stamp.size }

    /// Where to read the content. Derived rather than stored: a scan of 100,000 files
    /// would otherwise hold the root prefix 100,000 times.
    package var absolutePath: String { linkTarget ?? root + "/" + relativePath }
}

/// What `stat` says about a file: enough to tell, without reading it, that it has not
/// changed since it was last hashed.
package struct FileStamp: Equatable, Hashable, Sendable, Codable {
    package let size: Int64
    package let mtimeNanoseconds: Int64
    package let ctimeNanoseconds: Int64
    package let inode: UInt64
    package let device: UInt64
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
