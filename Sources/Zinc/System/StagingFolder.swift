#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A private folder beside where a finished tree will go (a clone, a client's bundle),
/// so the last step is one rename within a file system and an interrupted run leaves
/// no half-built tree under the final name. mkdtemp makes it mode 0700: no other user
/// can put anything in it meanwhile.
package struct StagingFolder {
    package let path: String

    package init(in parent: String, for name: String) throws {
        var template = Array("\(parent)/.\(name).tmp-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ZincError.io(path: parent, operation: "create a staging folder in", errno: errno)
        }
        path = String(cString: made)
    }

    /// Removes what is left after success (the emptied folder) or failure (all of it).
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `mkdir -p` of `components` below the existing folder `base`. Something other than
    /// a folder in the way is ENOTDIR, whichever component it is (a manifest may name
    /// both `a` and `a/b`).
    package static func createFolders<Components: Sequence<Substring>>(_ components: Components, in base: String) throws {
        var folder = base
        var st = stat()
        for component in components {
            folder += "/" + component
            guard mkdir(folder, 0o755) != 0 else { continue }
            var code = errno
            if code == EEXIST {
                // A folder will do, or a link to one: the user may reach a destination through links.
                guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { continue }
                code = ENOTDIR
            }
            throw ZincError.io(path: folder, operation: "create folder", errno: code)
        }
    }
}
