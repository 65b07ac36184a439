#if canImport(CGlibcRename)
import CGlibcRename
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a complete folder where another one is in use, so that a reader finds one or
/// the other, never neither.
package enum FolderSwap {
    /// Moves `new` to `path`; the folder that was at `path`, if any, is at `new` afterwards,
    /// for the caller to remove. Where the system cannot exchange two paths in one step
    /// (a file system without `renameat2`'s exchange), the old folder moves aside first,
    /// leaving a moment with no folder at `path`.
    package static func replace(_ path: String, with new: String) throws {
        guard access(path, F_OK) == 0 else {
            guard rename(new, path) == 0 else { throw ZincError.io(path: path, operation: "rename into place", errno: errno) }
            return
        }
        if exchange(new, path) { return }
        let aside = new + ".old"
        guard rename(path, aside) == 0 else { throw ZincError.io(path: path, operation: "move aside", errno: errno) }
        guard rename(new, path) == 0 else {
            let code = errno
            rename(aside, path)
            throw ZincError.io(path: path, operation: "rename into place", errno: code)
        }
        guard rename(aside, new) == 0 else { throw ZincError.io(path: aside, operation: "rename", errno: errno) }
    }

    private static func exchange(_ a: String, _ b: String) -> Bool {
        #if canImport(CGlibcRename)
        renameat2(AT_FDCWD, a, AT_FDCWD, b, UInt32(ZINC_RENAME_EXCHANGE)) == 0
        #elseif canImport(Darwin)
        renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
        #else
        false
        #endif
    }
}
