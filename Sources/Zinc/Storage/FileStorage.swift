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
public final class FileStorage: CatalogStorage, Sendable {
    public let root: String
    public var location: String { root }

    /// Hidden from listings and from `zinc serve`; also the writer lock.
    public static let lockFileName = ".zinc.lock"
    /// Hidden likewise: the import lock.
    public static let importLockFileName = ".zinc.import.lock"
    /// Hidden likewise: held for the instant of a compare-and-swap's check and rename.
    static let commitLockFileName = ".zinc.commit.lock"
    static let temporaryMarker = ".tmp-"

    /// The root folder, open when the storage was made (-1 if it did not exist then), for
    /// the calls of the import's hot paths: they walk down from it (`objects/xx/yy/…`),
    /// not down the root's whole path, four times per object.
    private let rootDescriptor: Int32

    public init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        rootDescriptor = open(self.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if rootDescriptor >= 0 { close(rootDescriptor) }
    }

    func absolute(_ path: String) -> String { root + "/" + path }

    /// Where `path` is for the `*at` calls: below the open root, or by its absolute path.
    func place(_ path: String) -> FilePlace {
        rootDescriptor >= 0 ? FilePlace(folder: rootDescriptor, path: path) : FilePlace(folder: AT_FDCWD, path: absolute(path))
    }

    /// Opens the stored file at `path` for reading.
    func openStored(_ path: String) throws -> PosixFile {
        let place = place(path)
        return try PosixFile.openForReading(place.path, in: place.folder, shownAs: absolute(path))
    }

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
            return try openStored(path)
        } catch let error as ZincError where error.errno == ENOENT || error.errno == ENOTDIR {
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

    /// A local disk, where every commit renames or links a new inode into place.
    public var properties: StorageProperties { .local }

    /// `flock`s on hidden files of the root.
    public var locks: any StorageLocks { FolderLocks(storage: self) }

    /// Named temporaries are `.<name>.tmp-<pid>-<serial>` (see `FileStorageWriter`). One
    /// whose process is gone will never be committed; the age limit also catches those
    /// whose pid a new process has taken since. Each is shown, and discarded, by its own
    /// path (its token).
    public func abandonedWrites(olderThan age: Duration) throws -> [AbandonedWrite] {
        let cutoff = Int(time(nil)) - Int(age.components.seconds)
        var results = [AbandonedWrite]()
        try walk("") { path, name, status in
            guard name.hasPrefix("."), let marker = Array(name.ranges(of: Self.temporaryMarker)).last else { return }
            let suffix = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard suffix.count == 2, let pid = pid_t(suffix[0]), UInt32(suffix[1]) != nil else { return }
            let modified = Int(status.modificationTime.tv_sec)
            // EPERM means the process exists but belongs to someone else: still a live writer.
            let writerGone = kill(pid, 0) != 0 && errno == ESRCH
            if writerGone || modified < cutoff {
                results.append(AbandonedWrite(displayPath: path, size: Int64(status.st_size), token: path))
            }
        }
        return results.sorted { $0.displayPath < $1.displayPath }
    }

    public func discard(_ write: AbandonedWrite) throws {
        guard let path = write.token as? String else { preconditionFailure("\(write.displayPath) is no write of a FileStorage") }
        try delete(path)
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
        try DurableBatch.flush(fileSystemOf: root)
    }

    /// On Linux, an fsync of each file and then of each folder holding one (where its
    /// name was linked): `syncfs` would also wait for every object an import is still
    /// writing back. Elsewhere files are synced at their commit, and `flush` is cheap.
    public func flush(files paths: [String]) throws {
        #if os(Linux)
        var folders = [String: FilePlace]()
        for path in paths {
            try openStored(path).synchronize()
            let file = place(path)
            let folder = file.parent ?? FilePlace(folder: file.folder, path: ".")
            folders[folder.path] = folder
        }
        for folder in folders.values {
            try PosixFile.openForReading(folder.path, in: folder.folder, shownAs: shown(folder)).synchronize()
        }
        #else
        try flush()
        #endif
    }

    /// `flock` on a hidden file of the root: released by the kernel when the process
    /// dies, so a killed writer never leaves the catalog locked.
    func withLock<T>(_ fileName: String, _ operation: Int32, _ body: () throws -> T) throws -> T {
        try createFolders(FilePlace(folder: AT_FDCWD, path: root))
        let lock = try PosixFile.open(absolute(fileName), flags: O_RDWR | O_CREAT)
        while flock(lock.fd, operation) != 0 {
            if errno != EINTR { throw ZincError.io(path: lock.path, operation: "lock", errno: errno) }
        }
        defer { flock(lock.fd, LOCK_UN) }
        return try body()
    }

    func createParentFolders(of path: String) throws {
        if let folder = place(path).parent { try createFolders(folder) }
    }

    /// Whether the folder holding `path` is most likely missing: this storage made the
    /// folder above it and not that one, so only another writer could have made it
    /// meanwhile. A new catalog's first object in each `objects/xx/yy` then creates the
    /// folder straight away instead of first failing to open a file in it (a failed call
    /// per folder, tens of thousands for a tree of small files). Either answer is safe:
    /// creating an existing folder is accepted, and opening in a missing one falls back
    /// to creating it.
    func parentIsLikelyMissing(of path: String) -> Bool {
        guard let folder = place(path).parent, let above = folder.parent else { return false }
        return madeFolders.withLock { $0.contains(above.path) && !$0.contains(folder.path) }
    }

    /// The folders this storage created or found existing while creating them, by path.
    /// At most the 65,792 folders of `objects/`, each a String short enough to need no
    /// allocation of its own.
    private let madeFolders = Mutex(Set<String>())

    /// `mkdir -p`, deepest folder first: a new `objects/xx/yy` costs one or two calls,
    /// not one per component of the catalog's absolute path.
    private func createFolders(_ folder: FilePlace) throws {
        if mkdirat(folder.folder, folder.path, 0o755) == 0 || errno == EEXIST { return remember(folder) }
        guard errno == ENOENT, let parent = folder.parent else {
            throw ZincError.io(path: shown(folder), operation: "create folder", errno: errno)
        }
        try createFolders(parent)
        if mkdirat(folder.folder, folder.path, 0o755) != 0 && errno != EEXIST {
            throw ZincError.io(path: shown(folder), operation: "create folder", errno: errno)
        }
        remember(folder)
    }

    private func remember(_ folder: FilePlace) {
        _ = madeFolders.withLock { $0.insert(folder.path) }
    }

    /// The absolute path of `place`, for messages.
    func shown(_ place: FilePlace) -> String {
        place.folder == AT_FDCWD ? place.path : absolute(place.path)
    }
}

/// A local catalog's locks: `flock`s on hidden files of its root, released by the kernel
/// when the process dies, so a killed writer never leaves the catalog locked.
private struct FolderLocks: StorageLocks {
    let storage: FileStorage

    func withWriterLock<T>(_ body: () throws -> T) throws -> T {
        try storage.withLock(FileStorage.lockFileName, LOCK_EX, body)
    }

    func withImportLock<T>(exclusive: Bool, _ body: (HeldLock) throws -> T) throws -> T {
        try storage.withLock(FileStorage.importLockFileName, exclusive ? LOCK_EX : LOCK_SH) { try body(ProcessLifetimeLock()) }
    }
}
