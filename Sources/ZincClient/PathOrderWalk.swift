import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder's entries one at a time in the order of their paths' bytes, the order of a
/// version's table (`CompactManifest`), so that a folder and a table are compared by one
/// merge of the two, with neither held whole: what `status` walks a checked-out folder by.
///
/// As git orders its index: each folder is listed once, from a descriptor of its own,
/// and its entries sorted, a folder's name with a '/' after it, which puts its entries
/// where their whole paths sort ("a.txt" before "a/b", '.' being before '/'). What is held
/// is the listing of each folder on the way down, not the tree: at 1,000,000 files in
/// 92,592 top-level entries, about 3 MB for that folder's names. A file is looked at
/// with one `fstatat` relative to its folder when it is given; a folder costs none
/// (its listing's type says it is one; file systems that do not say give it a stat).
struct PathOrderWalk {
    enum Kind {
        case file(stat)
        case folder
        /// A link, device or the like: not followed.
        case other
    }

    private struct Level {
        /// The folder, open.
        let descriptor: Int32
        /// Each entry's name, a folder's with '/' after it, then a NUL, back to back.
        let names: [UInt8]
        /// Each entry's name in `names` (its NUL not counted), sorted.
        let entries: [(start: UInt32, length: UInt32)]
        var next = 0
        /// Where this folder's entries start in `path`.
        let prefix: Int
    }

    private var levels = [Level]()
    /// The path under the walked folder of the entry last given, a folder's ending in '/'.
    private(set) var path = [UInt8]()

    /// A walk of `folder`; one that cannot be listed gives nothing.
    init(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 { descend(descriptor) }
    }

    /// The next entry, its path in `path`; nil at the end. An entry gone since its folder
    /// was listed is as if never there.
    mutating func next() -> Kind? {
        while let level = levels.last {
            guard level.next < level.entries.count else {
                close(level.descriptor)
                levels.removeLast()
                continue
            }
            let (start, length) = (Int(level.entries[level.next].start), Int(level.entries[level.next].length))
            levels[levels.count - 1].next += 1
            path.removeSubrange(level.prefix...)
            path.append(contentsOf: level.names[start..<start + length])
            if path.last == 0x2F {
                // The name without its '/', for the call relative to its folder.
                let name = Array(level.names[start..<start + length - 1]) + [0]
                let child = name.withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) {
                        openat(level.descriptor, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    }
                }
                // A folder that cannot be opened is given, with nothing under it.
                if child >= 0 { descend(child) }
                return .folder
            }
            var info = stat()
            let found = level.names.withUnsafeBufferPointer { names in
                names.withMemoryRebound(to: CChar.self) { fstatat(level.descriptor, $0.baseAddress! + start, &info, AT_SYMLINK_NOFOLLOW) }
            }
            guard found == 0 else { continue }
            return info.st_mode & S_IFMT == S_IFREG ? .file(info) : .other
        }
        return nil
    }

    /// Closes the folders still open: a walk left before its end (it holds one
    /// descriptor a level, closed by `next` as each folder ends).
    mutating func stop() {
        for level in levels { close(level.descriptor) }
        levels.removeAll()
    }

    /// Lists the folder open as `descriptor` (closed at the end of its entries) and makes
    /// it the level whose entries come next, under `path`.
    private mutating func descend(_ descriptor: Int32) {
        // The listing's stream is closed once read: the folder's own descriptor is kept.
        let listed = dup(descriptor)
        guard listed >= 0, let dir = fdopendir(listed) else {
            if listed >= 0 { close(listed) }
            close(descriptor)
            return
        }
        var names = [UInt8]()
        var entries = [(start: UInt32, length: UInt32)]()
        while let entry = readdir(dir) {
            let start = names.count
            withUnsafeBytes(of: entry.pointee.d_name) { raw in names.append(contentsOf: raw.prefix { $0 != 0 }) }
            let length = names.count - start
            if length == 1 && names[start] == 0x2E || length == 2 && names[start] == 0x2E && names[start + 1] == 0x2E {
                names.removeSubrange(start...)
                continue
            }
            var isFolder = Int32(entry.pointee.d_type) == DT_DIR
            if Int32(entry.pointee.d_type) == DT_UNKNOWN {
                var info = stat()
                isFolder = fstatat(descriptor, &entry.pointee.d_name.0, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder { names.append(0x2F) }
            entries.append((UInt32(start), UInt32(names.count - start)))
            names.append(0)
        }
        closedir(dir)
        names.withUnsafeBufferPointer { all in
            entries.sort { a, b in
                CompactManifest.compare(
                    UnsafeBufferPointer(rebasing: all[Int(a.start)..<Int(a.start + a.length)]),
                    UnsafeBufferPointer(rebasing: all[Int(b.start)..<Int(b.start + b.length)])) < 0
            }
        }
        levels.append(Level(descriptor: descriptor, names: names, entries: entries, prefix: path.count))
    }
}
