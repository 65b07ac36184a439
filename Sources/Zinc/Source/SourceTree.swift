import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a source folder and lists the files a bundle version is made of, refusing
/// anything that could not be represented safely in a manifest.
package enum SourceTree {
    /// Lists every regular file below `root` that `ignoring` does not exclude, sorted by
    /// path. Symlinks to files inside the tree are followed; symlinked folders are not
    /// descended; FIFOs, sockets and devices are skipped without being opened, and so
    /// are Zinc catalogs and client repos found inside (a catalog kept in its own source
    /// folder would otherwise import itself, growing with every version). `warn`
    /// receives what was skipped, in path order, once the walk is done. The root's
    /// entries are walked on `workers` threads (nil: one per available core); the result
    /// is the same whatever the number.
    package static func scan(
        _ root: String, ignoring: IgnorePatterns = IgnorePatterns(), workers: Int? = nil,
        warn: (String) -> Void
    ) throws -> [SourceFile] {
        guard let resolvedRoot = realPath(root) else {
            throw ZincError.sourceProblem(path: root, reason: errno == ENOENT ? "no such folder" : String(cString: strerror(errno)))
        }
        var st = stat()
        guard stat(resolvedRoot, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ZincError.sourceProblem(path: root, reason: "not a folder")
        }
        let walk = Walk(root: resolvedRoot, display: root, ignoring: ignoring)
        var warnings = [String]()
        let top = try walk.list(
            directory: resolvedRoot, opening: PosixFile.openLeavingAccessTime(resolvedRoot, in: AT_FDCWD, flags: folderFlags),
            relative: "", warnings: &warnings)!
        do {
            let (files, rest) = try walk.visitInParallel(top, lanes: workers ?? AvailableCores.count)
            (warnings + rest).forEach(warn)
            guard !files.isEmpty else { throw ZincError.emptySource(root) }
            return files
        } catch let failure as WalkFailure {
            (warnings + failure.warnings).forEach(warn)
            throw failure.error
        }
    }

    /// How a folder is opened for listing. Never through a symlink: the listing said it
    /// is a folder, and a link put in its place meanwhile must not lead the walk outside.
    /// Without touching its access time where allowed: listing the 46,000 folders of
    /// corpus S, last read a day ago or more, would otherwise leave as many inodes for
    /// the catalog's flush to write when the tree shares its file system.
    private static let folderFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC

    /// A folder's sorted entries, with the folder kept open: its files are looked at and
    /// its subfolders opened relative to it, with no walk down the whole path for each
    /// of the 46,000 folders and 100,000 files of corpus S.
    private final class ListedFolder: Sendable {
        /// The open folder, which any thread may use through `*at` calls.
        let descriptor: Int32
        let directory: String
        let relative: String
        let names: [ListedName]
        /// The stream `descriptor` belongs to, closed (and it with it) with the folder.
        /// Under a lock only because a `DIR*` is not `Sendable`: nothing else uses it.
        private let stream: Mutex<OpaquePointer>

        /// Lists the folder `dir` streams, which it then owns.
        init(_ dir: sending OpaquePointer, directory: String, relative: String) {
            descriptor = dirfd(dir)
            self.directory = directory
            self.relative = relative
            names = Self.sortedNames(dir)
            stream = Mutex(dir)
        }

        deinit { stream.withLock { _ = closedir($0) } }

        /// The folder's entries but '.' and '..', sorted.
        private static func sortedNames(_ dir: OpaquePointer) -> [ListedName] {
            var names = [ListedName]()
            while let entry = readdir(dir) {
                var name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                var isFolder = Int32(entry.pointee.d_type) == DT_DIR
                if Int32(entry.pointee.d_type) == DT_UNKNOWN {  // file systems that do not say
                    var st = stat()
                    isFolder =
                        fstatat(dirfd(dir), &entry.pointee.d_name.0, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
                }
                if isFolder { name.append(0x2F) }
                names.append(ListedName(key: name, isFolder: isFolder))
            }
            // Sorted with a '/' after folder names, which is where a folder's paths differ
            // from its siblings': the files then come out sorted by whole path, without a
            // second table of 100,000 files to sort them at the end.
            names.sort { $0.key.lexicographicallyPrecedes($1.key) }
            return names
        }
    }

    /// What every folder of one scan shares.
    private struct Walk: Sendable {
        let root: String
        let display: String
        let ignoring: IgnorePatterns

        /// Lists `directory`, open as `descriptor` (or -1 with errno set when it could not
        /// be opened); nil for a Zinc catalog or client repo, which is skipped with a
        /// warning.
        func list(directory: String, opening descriptor: Int32, relative: String, warnings: inout [String]) throws -> ListedFolder? {
            guard descriptor >= 0, let dir = fdopendir(descriptor) else {
                let error = errno
                if descriptor >= 0 { close(descriptor) }
                throw ZincError.io(path: directory, operation: "read folder", errno: error)
            }
            let folder = ListedFolder(dir, directory: directory, relative: relative)
            if !relative.isEmpty, let kind = zincFolderKind(folder.names, in: folder.descriptor) {
                warnings.append("skipping '\(display)/\(relative)': it is a Zinc \(kind), not content")
                return nil
            }
            try refuseNormalizationTwins(
                folder.names.lazy.map(\.bytes), shownFolder: display + (relative.isEmpty ? "" : "/" + relative))
            return folder
        }

        /// Adds the files of the entries `range` of `folder`, and of the folders among
        /// them, to `files`, in path order.
        func visit(_ folder: ListedFolder, _ range: Range<Int>, into files: inout [SourceFile], warnings: inout [String]) throws {
            let descriptor = folder.descriptor
            let relative = folder.relative
            for listed in folder.names[range] {
                let bytes = listed.bytes
                // Built only for messages: the walk visits every file of trees of 100,000.
                var shownPath: String { display + "/" + (relative.isEmpty ? "" : relative + "/") + String(decoding: bytes, as: UTF8.self) }
                // Before the name checks: what is left out need not have a name zinc could store.
                if ignoring.excludes(bytes, in: relative, isFolder: listed.isFolder) { continue }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    throw ZincError.sourceProblem(path: shownPath, reason: "the name is not valid UTF-8")
                }
                if name.unicodeScalars.contains(where: Names.isControl) {
                    throw ZincError.sourceProblem(path: shownPath, reason: "the name contains a control character")
                }
                var childPath: String { folder.directory + "/" + name }
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                // The folder's own listing already says what is a folder, sparing a stat for
                // each one (trees of assets nest deeply: corpus A has 1,600 folders).
                if listed.isFolder {
                    try descend(
                        into: childPath, opening: PosixFile.openLeavingAccessTime(name, in: descriptor, flags: folderFlags),
                        relative: childRelative, files: &files,
                        warnings: &warnings)
                    continue
                }
                var st = stat()
                // Relative to the open folder: no walk down the whole path for each file.
                guard fstatat(descriptor, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                    throw ZincError.io(path: shownPath, operation: "stat", errno: errno)
                }
                switch st.st_mode & S_IFMT {
                case S_IFDIR:
                    try descend(
                        into: childPath, opening: PosixFile.openLeavingAccessTime(name, in: descriptor, flags: folderFlags),
                        relative: childRelative, files: &files,
                        warnings: &warnings)
                case S_IFREG:
                    files.append(try sourceFile(childRelative, root: root, linkTarget: nil, status: st, shownPath: shownPath))
                case S_IFLNK:
                    if let file = try followLink(childPath, relative: childRelative, root: root, shownPath: shownPath, warnings: &warnings)
                    {
                        files.append(file)
                    }
                default:
                    warnings.append("skipping '\(shownPath)': not a regular file (FIFO, socket or device)")
                }
            }
        }

        private func descend(
            into directory: String, opening descriptor: Int32, relative: String, files: inout [SourceFile], warnings: inout [String]
        ) throws {
            guard let folder = try list(directory: directory, opening: descriptor, relative: relative, warnings: &warnings) else { return }
            try visit(folder, folder.names.indices, into: &files, warnings: &warnings)
        }

        /// `visit` of every entry of `top`, a subfolder or a run of files at a time on each
        /// of `lanes` threads. Each piece's files join the result in path order as soon as
        /// the pieces before it have: only pieces finished ahead of a slower one are held
        /// beside the result, not a second copy of the whole list. The error thrown is the
        /// one a walk on one thread meets first; the warnings returned are those it would
        /// have given. A tree under one top folder is walked on one thread.
        func visitInParallel(_ top: ListedFolder, lanes: Int) throws -> (files: [SourceFile], warnings: [String]) {
            let pieces = Self.pieces(of: top.names)
            let join = PieceJoin(count: pieces.count)
            _ = try parallelMap(count: max(1, min(lanes, pieces.count)), workers: lanes) { _ in
                while let i = join.take() {
                    var files = [SourceFile]()
                    var warnings = [String]()
                    do {
                        try visit(top, pieces[i], into: &files, warnings: &warnings)
                        join.finish(i, .listed(files, warnings))
                    } catch {
                        join.finish(i, .failed(error, warnings))
                    }
                }
            }
            return try join.result()
        }

        /// The entries of the top folder cut into pieces: each subfolder alone, the files
        /// between them in runs of at most `filesPerPiece`.
        private static func pieces(of names: [ListedName]) -> [Range<Int>] {
            var pieces = [Range<Int>]()
            var start = 0
            for (i, listed) in names.enumerated() where listed.isFolder || i - start == filesPerPiece {
                if start < i { pieces.append(start..<i) }
                start = listed.isFolder ? i + 1 : i
                if listed.isFolder { pieces.append(i..<i + 1) }
            }
            if start < names.count { pieces.append(start..<names.count) }
            return pieces
        }

        /// Runs of files of the top folder visited as one piece: enough to outweigh the
        /// hand-over, few enough to share a folder of files alone between the lanes.
        static let filesPerPiece = 256
    }

    /// The pieces of a parallel walk: handed out in order, joined in order.
    private final class PieceJoin: Sendable {
        enum Outcome {
            case listed([SourceFile], [String])
            case failed(Error, [String])
        }

        private struct State {
            var next = 0
            var joined = 0
            /// Pieces done before some piece ahead of them.
            var waiting = [Int: Outcome]()
            var files = [SourceFile]()
            var warnings = [String]()
            /// The first piece that failed, once one has.
            var failed: (piece: Int, error: Error)?
        }

        private let count: Int
        private let state = Mutex(State())

        init(count: Int) { self.count = count }

        /// The next piece to visit; nil when none is left, or none before a failed one.
        func take() -> Int? {
            state.withLock { state in
                guard state.next < count, state.next < state.failed?.piece ?? Int.max else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func finish(_ piece: Int, _ outcome: Outcome) {
            state.withLock { state in
                state.waiting[piece] = outcome
                while let ready = state.waiting[state.joined] {
                    switch ready {
                    case .listed(let files, let warnings):
                        state.files.append(contentsOf: files)
                        state.warnings += warnings
                    case .failed(let error, let warnings):
                        // Taken out, so that pieces finishing later stop before it and
                        // do not add its warnings again.
                        state.waiting[state.joined] = nil
                        state.warnings += warnings
                        state.failed = (state.joined, error)
                        return
                    }
                    state.waiting[state.joined] = nil
                    state.joined += 1
                }
                if case .failed(let error, _) = outcome, piece < state.failed?.piece ?? Int.max {
                    state.failed = (piece, error)
                }
            }
        }

        /// Every piece's files in order, and the warnings; or the first failure's error.
        func result() throws -> (files: [SourceFile], warnings: [String]) {
            try state.withLock { state in
                if let failed = state.failed { throw WalkFailure(error: failed.error, warnings: state.warnings) }
                return (state.files, state.warnings)
            }
        }
    }

    /// A failed walk's error, with the warnings given before it.
    private struct WalkFailure: Error {
        let error: Error
        let warnings: [String]
    }

    /// "catalog" for a folder holding an index and `manifests/`, or an index alone that
    /// parses as a Zinc catalog index (a catalog just created has no `manifests/` yet);
    /// "client repo" for one holding `repo.json` and `bundles/`; else nil.
    /// Every folder of the source is asked, so this is one pass over its names, no table;
    /// an index file is read only in a folder that has one and no `manifests/`.
    private static func zincFolderKind(_ names: [ListedName], in folder: Int32) -> String? {
        func has(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { wanted in names.contains { $0.key.elementsEqual(wanted) } }
        }
        let indexName: String? = has("catalog.json") ? "catalog.json" : has("index.json") ? "index.json" : nil
        if let indexName {
            if has("manifests/") || holdsCatalogIndex(indexName, in: folder) { return "catalog" }
        }
        if has("repo.json") && has("bundles/") { return "client repo" }
        return nil
    }

    /// An empty catalog's index is a few dozen bytes; a content file of that name larger
    /// than this is not read.
    private static let largestEmptyIndex = 64 << 10

    /// Whether `name` in the open folder `folder` is a regular file that parses as a
    /// catalog index. Content named `catalog.json` or `index.json` (a web page's data)
    /// is no index: it lacks the format, id and bundles an index must have.
    private static func holdsCatalogIndex(_ name: String, in folder: Int32) -> Bool {
        // Never through a link, and never blocking on a FIFO put in the file's place.
        let fd = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        let file = PosixFile(fd: fd, path: name)
        guard let status = try? file.status(), (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= largestEmptyIndex,
            let bytes = try? file.readAll(upTo: largestEmptyIndex)
        else { return false }
        return (try? CatalogIndex.parse(bytes, path: name)) != nil
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
        warnings: inout [String]
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
            return try sourceFile(relative, root: root, linkTarget: target, status: st, shownPath: shownPath)
        case S_IFDIR:
            warnings.append("not descending into '\(shownPath)': symlinked folders are not followed")
            return nil
        default:
            warnings.append("skipping '\(shownPath)': it links to something that is not a regular file")
            return nil
        }
    }

    /// The regular file at `relative`, refused when it is larger than a manifest may say
    /// an object is: every reader of the catalog would refuse its manifest.
    private static func sourceFile(_ relative: String, root: String, linkTarget: String?, status: stat, shownPath: String) throws
        -> SourceFile
    {
        guard Int64(status.st_size) <= Manifest.maximumObjectSize else {
            throw ZincError.sourceProblem(
                path: shownPath,
                reason: "it is \(status.st_size) bytes, above the largest object a catalog holds (\(Manifest.maximumObjectSize) bytes)")
        }
        return SourceFile(relativePath: relative, root: root, linkTarget: linkTarget, stamp: FileStamp(status))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
