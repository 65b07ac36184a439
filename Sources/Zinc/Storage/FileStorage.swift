import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog in a local folder. Every file is written as an anonymous file in its final
/// folder and linked into place (or under a temporary name and renamed, see
/// `FileStorageWriter`), so readers (and a CDN syncing the folder) never see half a
/// file; `flush` is one `syncfs` for the whole batch instead of one fsync per object (on
/// Linux; elsewhere each file is synced at its commit and `flush` empties the drive's cache).
/// Locks are `flock`s on hidden files of the root, released by the kernel when a
/// process dies.
public final class FileStorage: CatalogStorage, @unchecked Sendable {
    public let root: String
    public var location: String { root }

    /// Hidden from listings and from `zinc serve`; also the writer lock.
    public static let lockFileName = ".zinc.lock"
    /// Hidden likewise; see `withImportLock`.
    public static let importLockFileName = ".zinc.import.lock"
    /// Hidden likewise: held for the instant of a compare-and-swap's check and rename.
    static let commitLockFileName = ".zinc.commit.lock"
    static let temporaryMarker = ".tmp-"

    public init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
    }

    func absolute(_ path: String) -> String { root + "/" + path }

    public func readVersioned(_ path: String) throws -> VersionedContent? {
        guard let reader = try openFile(path) else { return nil }
        return VersionedContent(bytes: try reader.readToEnd(), version: Self.version(of: try reader.status()))
    }

    /// Every commit renames a new file into place, so the inode changes with each one;
    /// the size and times guard against an inode number freed and taken again.
    static func version(of status: stat) -> StorageVersion {
        let (mtime, ctime) = (status.modificationTime, status.statusChangeTime)
        return StorageVersion(
            "\(status.st_dev):\(status.st_ino):\(status.st_size):\(mtime.tv_sec).\(mtime.tv_nsec):\(ctime.tv_sec).\(ctime.tv_nsec)")
    }

    /// The version of the file at `path` now, or nil when there is none.
    func currentVersion(of path: String) throws -> StorageVersion? {
        var st = stat()
        if lstat(absolute(path), &st) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ZincError.io(path: absolute(path), operation: "stat", errno: errno)
        }
        return Self.version(of: st)
    }

    public func openForReading(_ path: String) throws -> StorageReader? {
        try openFile(path)
    }

    private func openFile(_ path: String) throws -> PosixFile? {
        do {
            return try PosixFile.openForReading(absolute(path))
        } catch ZincError.io(_, _, let code) where code == ENOENT || code == ENOTDIR {
            return nil
        }
    }

    public func size(of path: String) throws -> Int64? {
        var st = stat()
        if stat(absolute(path), &st) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ZincError.io(path: absolute(path), operation: "stat", errno: errno)
        }
        return (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
    }

    public func list(_ folder: String) throws -> [String] {
        try entries(in: folder).map(\.path)
    }

    public func entries(in folder: String) throws -> [StorageEntry] {
        var results = [StorageEntry]()
        try walk(folder) { path, name, status in
            if !name.hasPrefix(".") { results.append(StorageEntry(path: path, size: Int64(status.st_size), fingerprint: nil)) }
        }
        return results.sorted { $0.path < $1.path }
    }

    public func folders(in folder: String) throws -> Set<String> {
        var results = Set<String>()
        try forEachEntry(of: folder) { name, status in
            if (status.st_mode & S_IFMT) == S_IFDIR && !name.hasPrefix(".") { results.insert(name) }
        }
        return results
    }

    /// Named temporaries are `.<name>.tmp-<pid>-<serial>` (see `FileStorageWriter`). One
    /// whose process is gone will never be committed; the age limit also catches those
    /// whose pid a new process has taken since.
    public func abandonedTemporaryFiles(olderThan age: Duration) throws -> [String] {
        let cutoff = Int(time(nil)) - Int(age.components.seconds)
        var results = [String]()
        try walk("") { path, name, status in
            guard name.hasPrefix("."), let marker = Array(name.ranges(of: Self.temporaryMarker)).last else { return }
            let suffix = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard suffix.count == 2, let pid = pid_t(suffix[0]), UInt32(suffix[1]) != nil else { return }
            let modified = Int(status.modificationTime.tv_sec)
            // EPERM means the process exists but belongs to someone else: still a live writer.
            let writerGone = kill(pid, 0) != 0 && errno == ESRCH
            if writerGone || modified < cutoff { results.append(path) }
        }
        return results.sorted()
    }

    /// Calls `visit` with the catalog-relative path, name and status of every regular
    /// file below `folder` ("" for the root), skipping hidden folders.
    private func walk(_ folder: String, _ visit: (String, String, stat) throws -> Void) throws {
        try forEachEntry(of: folder) { name, st in
            let child = folder.isEmpty ? name : folder + "/" + name
            switch st.st_mode & S_IFMT {
            case S_IFDIR where !name.hasPrefix("."): try walk(child, visit)
            case S_IFREG: try visit(child, name, st)
            default: return
            }
        }
    }

    /// The name and `lstat` of every entry of `folder` ("" for the root); nothing when
    /// the folder does not exist. Entries gone by the time they are looked at are skipped.
    private func forEachEntry(of folder: String, _ visit: (String, stat) throws -> Void) throws {
        guard let dir = opendir(folder.isEmpty ? root : absolute(folder)) else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw ZincError.io(path: absolute(folder), operation: "list", errno: errno)
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var st = stat()
            guard fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            try visit(name, st)
        }
    }

    public func delete(_ path: String) throws {
        if unlink(absolute(path)) != 0 {
            if errno == ENOENT { return }
            throw ZincError.io(path: absolute(path), operation: "delete", errno: errno)
        }
        FaultInjection.changed(path)
    }

    public func makeWriter(for path: String) throws -> StorageWriter {
        try FileStorageWriter(storage: self, path: path)
    }

    public func flush() throws {
        let folder = try PosixFile.open(root, flags: O_RDONLY | O_DIRECTORY)
        #if os(Linux)
        guard KernelCalls.syncfs(folder.fd) == 0 else { throw ZincError.io(path: root, operation: "sync", errno: errno) }
        #else
        // No syncfs: each file was handed to the disk at its commit (`FileStorageWriter`);
        // this has the drive write out its cache, the folder's entries with it.
        try folder.synchronize()
        #endif
    }

    public func withWriterLock<T>(_ body: () throws -> T) throws -> T {
        try withLock(Self.lockFileName, LOCK_EX, body)
    }

    public func withImportLock<T>(exclusive: Bool, _ body: (HeldLock) throws -> T) throws -> T {
        try withLock(Self.importLockFileName, exclusive ? LOCK_EX : LOCK_SH) { try body(ProcessLifetimeLock()) }
    }

    /// `flock` on a hidden file of the root: released by the kernel when the process
    /// dies, so a killed writer never leaves the catalog locked.
    func withLock<T>(_ fileName: String, _ operation: Int32, _ body: () throws -> T) throws -> T {
        try createFolders(root)
        let lock = try PosixFile.open(absolute(fileName), flags: O_RDWR | O_CREAT)
        while flock(lock.fd, operation) != 0 {
            if errno != EINTR { throw ZincError.io(path: lock.path, operation: "lock", errno: errno) }
        }
        defer { flock(lock.fd, LOCK_UN) }
        return try body()
    }

    func createParentFolders(of path: String) throws {
        let final = absolute(path)
        try createFolders(String(final[..<final.lastIndex(of: "/")!]))
    }

    /// `mkdir -p`, deepest folder first: a new `objects/xx/yy` costs one or two calls,
    /// not one per component of the catalog's absolute path.
    private func createFolders(_ path: String) throws {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
            throw ZincError.io(path: path, operation: "create folder", errno: errno)
        }
        try createFolders(String(path[..<slash]))
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw ZincError.io(path: path, operation: "create folder", errno: errno)
        }
    }
}

/// A file being written beside its final one. On Linux it is an anonymous file
/// (`O_TMPFILE`) in the final folder, linked into place at commit: no temporary name is
/// created and removed in the folder, which made each new object cost a tenth more,
/// and a killed writer leaves nothing behind. Elsewhere, or where the filesystem lacks
/// anonymous files, it has a temporary name and is renamed into place.
final class FileStorageWriter: StorageWriter {
    let path: String
    private let storage: FileStorage
    private let file: PosixFile
    /// The name the file is written under; nil while it is anonymous.
    private var temporaryPath: String?
    private var open = true
    private(set) var bytesWritten: Int64 = 0

    init(storage: FileStorage, path: String) throws {
        self.storage = storage
        self.path = path
        let final = storage.absolute(path)
        #if os(Linux)
        if let anonymous = try Self.creatingFolders(storage, path, { try Self.openAnonymous(beside: final) }) {
            if Self.linkingWorks.load(ordering: .relaxed) {
                file = anonymous
                return
            }
            // The process's first anonymous file proves that it can be linked, under the
            // temporary name a replacing commit gives it anyway. Where that is refused
            // (a sandbox or filesystem refusing links through /proc), every later file
            // has a temporary name instead of failing at its commit.
            let temporary = Self.temporaryName(beside: final)
            if Self.linkAnonymous(anonymous, as: temporary) == 0 {
                Self.linkingWorks.store(true, ordering: .relaxed)
                file = anonymous
                temporaryPath = temporary
                return
            }
            Self.anonymousFilesWork.store(false, ordering: .relaxed)
        }
        #endif
        let temporary = Self.temporaryName(beside: final)
        // Folders are created only when missing: most objects land in existing ones.
        file = try Self.creatingFolders(storage, path) {
            try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        }
        temporaryPath = temporary
    }

    /// `open()`, or, when the final folder is missing, `open()` again after creating it.
    private static func creatingFolders<T>(_ storage: FileStorage, _ path: String, _ open: () throws -> T) throws -> T {
        do {
            return try open()
        } catch ZincError.io(_, _, ENOENT) {
            try storage.createParentFolders(of: path)
            return try open()
        }
    }

    /// `.<name>.tmp-<pid>-<serial>` in the final folder (see `abandonedTemporaryFiles`).
    private static func temporaryName(beside final: String) -> String {
        let slash = final.lastIndex(of: "/")!
        let name = final[final.index(after: slash)...]
        return "\(final[..<slash])/.\(name)\(FileStorage.temporaryMarker)\(processID)-\(serial.next())"
    }

    #if os(Linux)
    /// An anonymous file in the folder of `final`, or nil where anonymous files cannot be
    /// made or linked (the first refusal stops the attempts). Named after `final` in
    /// messages.
    private static func openAnonymous(beside final: String) throws -> PosixFile? {
        guard anonymousFilesWork.load(ordering: .relaxed) else { return nil }
        let folder = String(final[..<final.lastIndex(of: "/")!])
        let fd = folder.withCString { Glibc.open($0, O_WRONLY | KernelCalls.anonymousFile | O_CLOEXEC, mode_t(0o644)) }
        if fd >= 0 { return PosixFile(fd: fd, path: final) }
        // Kernels before 3.11 see a folder opened for writing (EISDIR); some filesystems refuse.
        guard errno == EISDIR || errno == EOPNOTSUPP || errno == EINVAL else {
            throw ZincError.io(path: folder, operation: "create a file in", errno: errno)
        }
        anonymousFilesWork.store(false, ordering: .relaxed)
        return nil
    }

    /// Linking needs the file's name under /proc (linkat's AT_EMPTY_PATH needs a privilege).
    private static let anonymousFilesWork = Atomic<Bool>(access("/proc/self/fd", F_OK) == 0)
    /// Whether an anonymous file of this process has been linked into a folder.
    private static let linkingWorks = Atomic<Bool>(false)

    /// Gives the anonymous `file` the name `destination`; EEXIST when taken.
    private static func linkAnonymous(_ file: PosixFile, as destination: String) -> Int32 {
        linkat(AT_FDCWD, "/proc/self/fd/\(file.fd)", AT_FDCWD, destination, AT_SYMLINK_FOLLOW)
    }
    #endif

    deinit { discard() }

    /// Temporary names only need to be unique among live writers: the pid separates
    /// processes, a counter the writers of one process (no random-number syscall each).
    private static let processID = getpid()
    private static let serial = SerialNumbers()

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try file.write(bytes)
        bytesWritten += Int64(bytes.count)
    }

    func append(storedFile path: String) throws {
        let source = try PosixFile.openForReading(storage.absolute(path))
        let before = try file.status().st_size
        try file.appendContents(of: source)
        bytesWritten += Int64(try file.status().st_size - before)
    }

    func append(localFile: PosixFile) throws {
        let before = try file.status().st_size
        try file.appendContents(of: localFile)
        bytesWritten += Int64(try file.status().st_size - before)
    }

    /// Fills the pieces at their precomputed offsets on `workers` threads: copying an
    /// archive's members is the largest single cost of an import. Small pieces are
    /// gathered into runs of up to `runSize` bytes, assembled in memory and written with
    /// one call; a write per tiny member would mostly wait for the file's lock held by
    /// the other threads' writes. Large stored files are copied in the kernel.
    func append(pieces: [WritePiece], workers: Int?) throws {
        let start = Int64(try file.status().st_size)
        var runs = [(pieces: Range<Int>, offset: Int64, size: Int)]()
        var end = start
        var first = 0
        while first < pieces.count {
            var last = first + 1
            var size = pieces[first].size
            if size <= Self.largePiece {
                while last < pieces.count, pieces[last].size <= Self.largePiece, size + pieces[last].size <= Self.runSize {
                    size += pieces[last].size
                    last += 1
                }
            }
            runs.append((first..<last, end, Int(size)))
            end += size
            first = last
        }
        let target = file
        _ = try parallelMap(count: runs.count, workers: workers) { r in
            let run = runs[r]
            if case .storedFile(let path, let size) = pieces[run.pieces.lowerBound], size > Self.largePiece {
                let copied = try target.copyContents(of: PosixFile.openForReading(storage.absolute(path)), at: run.offset)
                guard copied == size else { throw WritePieceMismatch(path: path, expected: size, actual: copied) }
                return
            }
            try target.write(assemble(pieces[run.pieces], size: run.size), at: run.offset)
        }
        guard lseek(file.fd, off_t(end), SEEK_SET) == end else {
            throw ZincError.io(path: file.path, operation: "seek", errno: errno)
        }
        bytesWritten += end - start
    }

    private static let runSize: Int64 = 1 << 20
    private static let largePiece: Int64 = 1 << 18

    /// The bytes of consecutive small pieces, stored files read whole.
    private func assemble(_ pieces: ArraySlice<WritePiece>, size: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: size)
        var offset = 0
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                buffer.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            case .storedFile(let path, let expected):
                let source = try PosixFile.openForReading(storage.absolute(path))
                let actual = Int64(try source.status().st_size)
                guard actual == expected else { throw WritePieceMismatch(path: path, expected: expected, actual: actual) }
                let count = try buffer.withUnsafeMutableBytes { whole in
                    try source.readFully(into: UnsafeMutableRawBufferPointer(rebasing: whole[offset..<offset + Int(expected)]))
                }
                guard count == expected else { throw WritePieceMismatch(path: path, expected: expected, actual: Int64(count)) }
            }
            offset += Int(piece.size)
        }
        return buffer
    }

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        precondition(open, "commit on a closed writer")
        let final = storage.absolute(path)
        defer { discard() }
        #if os(Linux)
        if temporaryPath == nil {
            if condition == .ifAbsent {
                // linkat never replaces an existing file: the object written first stays.
                guard Self.linkAnonymous(file, as: final) == 0 else {
                    if errno == EEXIST { return .conditionFailed }
                    throw ZincError.io(path: final, operation: "create", errno: errno)
                }
                open = false
                FaultInjection.changed(path)
                return .written
            }
            // Replacing needs a name to rename from.
            let temporary = Self.temporaryName(beside: final)
            guard Self.linkAnonymous(file, as: temporary) == 0 else {
                throw ZincError.io(path: temporary, operation: "create", errno: errno)
            }
            temporaryPath = temporary
        }
        #endif
        let temporary = temporaryPath!
        #if !os(Linux)
        // Without syncfs, `flush` could not reach this file's data later: it goes to the
        // disk before it has its name (the drive's cache is emptied by `flush`).
        guard fsync(file.fd) == 0 else { throw ZincError.io(path: temporary, operation: "sync", errno: errno) }
        #endif
        switch condition {
        case .always:
            break
        case .ifAbsent:
            // Neither call replaces an existing file: the object written first stays, byte
            // for byte. renameat2 does it in one step; link + unlink where it is missing.
            if Self.renameNoReplace(temporary, final) == 0 {
                open = false
                FaultInjection.changed(path)
                return .written
            }
            if errno == EEXIST { return .conditionFailed }
            if link(temporary, final) != 0 {
                if errno == EEXIST { return .conditionFailed }
                throw ZincError.io(path: final, operation: "create", errno: errno)
            }
            FaultInjection.changed(path)
            return .written
        case .ifMatch(let expected):
            // Every compare-and-swap of this folder takes the commit lock, so nothing
            // can commit to the path between this check and the rename.
            return try storage.withLock(FileStorage.commitLockFileName, LOCK_EX) {
                guard try storage.currentVersion(of: path) == expected else { return .conditionFailed }
                try renameIntoPlace(temporary, final)
                return .written
            }
        }
        try renameIntoPlace(temporary, final)
        return .written
    }

    private func renameIntoPlace(_ temporary: String, _ final: String) throws {
        guard rename(temporary, final) == 0 else {
            throw ZincError.io(path: final, operation: "rename into place", errno: errno)
        }
        open = false
        FaultInjection.changed(path)
    }

    private static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        #if os(Linux)
        return KernelCalls.renameNoReplace(source, destination)
        #else
        errno = ENOSYS
        return -1
        #endif
    }

    /// An anonymous file vanishes when closed; a named one is removed.
    func discard() {
        guard open else { return }
        open = false
        if let temporaryPath { unlink(temporaryPath) }
    }
}

/// 1, 2, 3, … from any thread.
private final class SerialNumbers: Sendable {
    private let last = Atomic<UInt32>(0)

    func next() -> UInt32 {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
