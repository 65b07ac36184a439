import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One walk of a checked-out folder, as `git status` walks its tree: each folder listed
/// once from a descriptor of its own, and each file looked at with one `fstatat`
/// relative to it, whose result both counts the file and judges it against its object's
/// stamp (`StoreCheck.holds`). Only a file whose `lstat` is not its object's stamp costs
/// more (a hash, at most). Nothing is held per file but a flag for each expected one.
struct FolderScan {
    /// The regular files under the folder, expected or not, and their bytes.
    private(set) var files = 0
    private(set) var bytes: Int64 = 0
    /// The expected files that are missing, not regular files, or do not hold their
    /// object's bytes, sorted.
    private(set) var damaged = [String]()

    private let expected: CheckedOutFiles?
    private let judging: Bool
    private var seen: [Bool]
    private var damagedIndices = [Int]()

    /// Walks `folder`, judging the files of `expected` when `judging` (a writable
    /// bundle's files are the app's). A folder that cannot be listed counts as empty, its
    /// expected files as missing.
    init(_ folder: String, expected: CheckedOutFiles?, judging: Bool, check: inout StoreCheck) throws {
        self.expected = expected
        self.judging = judging
        seen = Array(repeating: false, count: expected?.count ?? 0)
        var path = [UInt8]()
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 { try walk(descriptor, folder: folder, path: &path, check: &check) }
        guard let expected, judging else { return }
        damagedIndices += seen.indices.filter { !seen[$0] }
        damaged = damagedIndices.map { expected.path($0) }.sorted()
    }

    /// Walks the folder open as `descriptor` (closed on return), whose path under the
    /// walked folder is `path` (empty, or ending in '/').
    private mutating func walk(_ descriptor: Int32, folder: String, path: inout [UInt8], check: inout StoreCheck) throws {
        guard let dir = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(dir) }
        let prefix = path.count
        defer { path.removeSubrange(prefix...) }
        while let entry = readdir(dir) {
            path.removeSubrange(prefix...)
            withUnsafeBytes(of: entry.pointee.d_name) { raw in path.append(contentsOf: raw.prefix { $0 != 0 }) }
            let name = path.count - prefix
            if name == 1 && path[prefix] == 0x2E || name == 2 && path[prefix] == 0x2E && path[prefix + 1] == 0x2E { continue }
            var info = stat()
            // The listing says which entries are folders, sparing them a stat (the file
            // systems that do not say get one). An entry gone since is as if never there.
            if Int32(entry.pointee.d_type) == DT_DIR {
                info.st_mode = S_IFDIR
            } else if fstatat(dirfd(dir), &entry.pointee.d_name.0, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                continue
            }
            let index = expected.flatMap { files in path.withUnsafeBufferPointer { files.index(of: $0) } }
            if let index { seen[index] = true }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                files += 1
                bytes += Int64(info.st_size)
                if let index, judging, let expected {
                    if try !check.holds(expected.digest(index), file: info, at: folder + "/" + String(decoding: path, as: UTF8.self)) {
                        damagedIndices.append(index)
                    }
                }
            case S_IFDIR:
                if let index { damagedIndices.append(index) }
                let child = openat(dirfd(dir), &entry.pointee.d_name.0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { continue }
                path.append(0x2F)
                try walk(child, folder: folder, path: &path, check: &check)
            default:
                if let index { damagedIndices.append(index) }
            }
        }
    }
}
