#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a source folder and lists the files a bundle version is made of, refusing
/// anything that could not be represented safely in a manifest.
public enum SourceTree {
    /// Lists every regular file below `root` that `ignoring` does not exclude, sorted by
    /// path. Symlinks to files inside the tree are followed; symlinked folders are not
    /// descended; FIFOs, sockets and devices are skipped without being opened, and so
    /// are Zinc catalogs and client repos found inside (a catalog kept in its own source
    /// folder would otherwise import itself, growing with every version). `warn`
    /// receives what was skipped.
    public static func scan(
        _ root: String, ignoring: IgnorePatterns = IgnorePatterns(),
        warn: (String) -> Void
    ) throws -> [SourceFile] {
        guard let resolvedRoot = realPath(root) else {
            throw ZincError.sourceProblem(path: root, reason: errno == ENOENT ? "no such folder" : String(cString: strerror(errno)))
        }
        var st = stat()
        guard stat(resolvedRoot, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ZincError.sourceProblem(path: root, reason: "not a folder")
        }
        var files = [SourceFile]()
        try walk(
            directory: resolvedRoot, opening: open(resolvedRoot, folderFlags), relative: "", root: resolvedRoot,
            display: root, ignoring: ignoring, into: &files, warn: warn)
        guard !files.isEmpty else { throw ZincError.emptySource(root) }
        return files
    }

    /// How a folder is opened for listing. Never through a symlink: the listing said it
    /// is a folder, and a link put in its place meanwhile must not lead the walk outside.
    private static let folderFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC

    /// Lists `directory`, open as `descriptor` (or -1 with errno set when it could not be
    /// opened). Subfolders are opened relative to it: no walk down the whole path for
    /// each of the 46,000 folders of corpus S.
    private static func walk(
        directory: String, opening descriptor: Int32, relative: String, root: String, display: String,
        ignoring: IgnorePatterns, into files: inout [SourceFile], warn: (String) -> Void
    ) throws {
        guard descriptor >= 0, let dir = fdopendir(descriptor) else {
            let error = errno
            if descriptor >= 0 { close(descriptor) }
            throw ZincError.io(path: directory, operation: "read folder", errno: error)
        }
        defer { closedir(dir) }
        // Sorted with a '/' after folder names, which is where a folder's paths differ
        // from its siblings': the files then come out sorted by whole path, without a
        // second table of 100,000 files to sort them at the end.
        var names = [ListedName]()
        while let entry = readdir(dir) {
            var name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            var isFolder = Int32(entry.pointee.d_type) == DT_DIR
            if Int32(entry.pointee.d_type) == DT_UNKNOWN {  // file systems that do not say
                var st = stat()
                isFolder = fstatat(dirfd(dir), &entry.pointee.d_name.0, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            }
            if isFolder { name.append(0x2F) }
            names.append(ListedName(key: name, isFolder: isFolder))
        }
        if !relative.isEmpty, let kind = zincFolderKind(names) {
            warn("skipping '\(display)/\(relative)': it is a Zinc \(kind), not content")
            return
        }
        names.sort { $0.key.lexicographicallyPrecedes($1.key) }
        try refuseNormalizationTwins(names.lazy.map(\.bytes), shownFolder: display + (relative.isEmpty ? "" : "/" + relative))
        for listed in names {
            let bytes = listed.bytes
            // Built only for messages: the walk visits every file of trees of 100,000.
            var shownPath: String { display + "/" + (relative.isEmpty ? "" : relative + "/") + String(decoding: bytes, as: UTF8.self) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                throw ZincError.sourceProblem(path: shownPath, reason: "the name is not valid UTF-8")
            }
            if name.unicodeScalars.contains(where: Names.isControl) {
                throw ZincError.sourceProblem(path: shownPath, reason: "the name contains a control character")
            }
            var childPath: String { directory + "/" + name }
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            if ignoring.excludes(childRelative, isFolder: listed.isFolder) { continue }
            // The folder's own listing already says what is a folder, sparing a stat for
            // each one (trees of assets nest deeply: corpus A has 1,600 folders).
            if listed.isFolder {
                try walk(
                    directory: childPath, opening: openat(dirfd(dir), name, folderFlags), relative: childRelative,
                    root: root, display: display, ignoring: ignoring, into: &files, warn: warn)
                continue
            }
            var st = stat()
            // Relative to the open folder: no walk down the whole path for each file.
            guard fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw ZincError.io(path: shownPath, operation: "stat", errno: errno)
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                try walk(
                    directory: childPath, opening: openat(dirfd(dir), name, folderFlags), relative: childRelative,
                    root: root, display: display, ignoring: ignoring, into: &files, warn: warn)
            case S_IFREG:
                files.append(SourceFile(relativePath: childRelative, root: root, linkTarget: nil, stamp: FileStamp(st)))
            case S_IFLNK:
                if let file = try followLink(childPath, relative: childRelative, root: root, shownPath: shownPath, warn: warn) {
                    files.append(file)
                }
            default:
                warn("skipping '\(shownPath)': not a regular file (FIFO, socket or device)")
            }
        }
    }

    /// "catalog" for a folder holding an index and `manifests/`, "client repo" for one
    /// holding `repo.json` and `bundles/`, else nil.
    /// Every folder of the source is asked, so this is one pass over its names, no table.
    private static func zincFolderKind(_ names: [ListedName]) -> String? {
        func has(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { wanted in names.contains { $0.key.elementsEqual(wanted) } }
        }
        if has("manifests/") && (has("catalog.json") || has("index.json")) { return "catalog" }
        if has("repo.json") && has("bundles/") { return "client repo" }
        return nil
    }

    /// One entry of a folder: its name, with a '/' appended to folders' as its sort key.
    private struct ListedName {
        var key: [UInt8]
        var isFolder: Bool
        var bytes: ArraySlice<UInt8> { isFolder ? key.dropLast() : key[...] }
    }

    /// Refuses two names of one folder that differ only in Unicode normalization ("é" as
    /// one character, or as "e" and a combining accent). A file system tells them apart,
    /// but macOS and iOS file systems, Swift's `String` and so every Zinc reader take them
    /// for one name: a client would keep one of the two files and silently lose the other.
    private static func refuseNormalizationTwins(_ names: some Collection<ArraySlice<UInt8>>, shownFolder: String) throws {
        // Every such pair has a name outside ASCII; most folders have none to check.
        guard names.contains(where: { $0.contains { $0 >= 0x80 } }) else { return }
        var seen = [String: String]()  // keyed by canonical equivalence, valued by spelling
        for bytes in names {
            guard let name = String(validating: bytes, as: UTF8.self) else { continue }  // the walk names it
            if let twin = seen.updateValue(name, forKey: name) {
                throw ZincError.sourceProblem(
                    path: shownFolder + "/" + name,
                    reason: "another name in its folder, '\(twin)', differs from it only in Unicode normalization "
                        + "(\(scalarsSpelledOut(twin)) against \(scalarsSpelledOut(name))); macOS, iOS and Zinc's readers "
                        + "take the two for one name, so rename one")
            }
        }
    }

    /// A name with its non-ASCII characters written as code points, so that two names
    /// that print alike can be told apart in a message: "cafe\u{301}.txt".
    private static func scalarsSpelledOut(_ name: String) -> String {
        name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }

    private static func followLink(
        _ path: String, relative: String, root: String, shownPath: String,
        warn: (String) -> Void
    ) throws -> SourceFile? {
        guard let target = realPath(path) else {
            switch errno {
            case ELOOP: throw ZincError.sourceProblem(path: shownPath, reason: "symlink loop")
            case ENOENT, ENOTDIR: throw ZincError.sourceProblem(path: shownPath, reason: "dangling symlink (its target does not exist)")
            default: throw ZincError.io(path: shownPath, operation: "resolve symlink", errno: errno)
            }
        }
        guard target.hasPrefix(root + "/") else {
            throw ZincError.sourceProblem(path: shownPath, reason: "symlink points outside the source folder (to '\(target)')")
        }
        var st = stat()
        guard stat(target, &st) == 0 else { throw ZincError.io(path: shownPath, operation: "stat", errno: errno) }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return SourceFile(relativePath: relative, root: root, linkTarget: target, stamp: FileStamp(st))
        case S_IFDIR:
            warn("not descending into '\(shownPath)': symlinked folders are not followed")
            return nil
        default:
            warn("skipping '\(shownPath)': it links to something that is not a regular file")
            return nil
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
