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

/// Paths the way catalog folders are named: what `NSString`'s `expandingTildeInPath`
/// and `standardizingPath` gave, written out here because those live in the part of
/// Foundation that would link ICU's tables into `zinc`.
enum StandardizedPath {
    /// `path` made absolute (from the current folder, or `~`), without `.`, `..`,
    /// repeated or trailing slashes, and with symbolic links resolved. Components are
    /// taken one at a time from the root, so a `..` after a link leaves the link's
    /// target, as the kernel would; the part of the path that does not exist yet (a
    /// catalog about to be created) is kept as written.
    static func absolute(_ path: String) -> String {
        var expanded = expandingTilde(path)
        if !expanded.hasPrefix("/") { expanded = FileManager.default.currentDirectoryPath + "/" + expanded }
        var resolved = ""  // "" is the root
        for component in expanded.split(separator: "/") {
            switch component {
            case ".":
                continue
            case "..":
                resolved = String(resolved[..<(resolved.lastIndex(of: "/") ?? resolved.startIndex)])
            default:
                resolved += "/" + component
                if isSymbolicLink(resolved), let target = SourceTree.realPath(resolved) {
                    resolved = target == "/" ? "" : target
                }
            }
        }
        // macOS: /tmp and /var are links into /private; name them as people write them.
        if resolved.hasPrefix("/private/"), FileManager.default.fileExists(atPath: String(resolved.dropFirst(8))) {
            resolved.removeFirst(8)
        }
        return resolved.isEmpty ? "/" : resolved
    }

    /// `~` and `~/…` from the current user's home folder, `~name/…` from that user's;
    /// an unknown user leaves the path as it is.
    static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let endOfName = path.firstIndex(of: "/") ?? path.endIndex
        let name = path[path.index(after: path.startIndex)..<endOfName]
        let home: URL? =
            name.isEmpty
            ? FileManager.default.homeDirectoryForCurrentUser
            : FileManager.default.homeDirectory(forUser: String(name))
        guard let home else { return path }
        return home.path + path[endOfName...]
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}
