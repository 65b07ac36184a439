import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let place = storage.place(path)
        if let anonymous = try Self.creatingFolders(storage, path, { try Self.openAnonymous(beside: place, shownAs: final) }) {
            if Self.linkingWorks.load(ordering: .relaxed) {
                file = anonymous
                return
            }
            // The process's first anonymous file proves that it can be linked, under the
            // temporary name a replacing commit gives it anyway. Where that is refused
            // (a sandbox or filesystem refusing links through /proc), every later file
            // has a temporary name instead of failing at its commit.
            let temporary = Self.temporaryName(beside: final)
            if Self.linkAnonymous(anonymous, as: .init(folder: AT_FDCWD, path: temporary)) == 0 {
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

    /// `open()`, or, when the final folder is missing, `open()` again after creating it;
    /// creating it first when it is likely missing (see `parentIsLikelyMissing`).
    private static func creatingFolders<T>(_ storage: FileStorage, _ path: String, _ open: () throws -> T) throws -> T {
        if storage.parentIsLikelyMissing(of: path) { try storage.createParentFolders(of: path) }
        do {
            return try open()
        } catch let error as ZincError where error.errno == ENOENT {
            try storage.createParentFolders(of: path)
            return try open()
        }
    }

    /// `.<name>.tmp-<pid>-<serial>` in the final folder (see `FileStorage.abandonedWrites`).
    private static func temporaryName(beside final: String) -> String {
        // Searched as UTF-8, like `FileStorage.Place.parent`: this runs for every object
        // where files are not anonymous (Darwin), and Characters are slow to walk.
        let slash = final.utf8.lastIndex(of: UInt8(ascii: "/"))!
        let name = final[final.utf8.index(after: slash)...]
        return "\(final[..<slash])/.\(name)\(FileStorage.temporaryMarker)\(processID)-\(serial.next())"
    }

    #if os(Linux)
    /// An anonymous file in the folder of `final`, or nil where anonymous files cannot be
    /// made or linked (the first refusal stops the attempts). Named `shown` in messages.
    private static func openAnonymous(beside final: FileStorage.Place, shownAs shown: String) throws -> PosixFile? {
        guard anonymousFilesWork.load(ordering: .relaxed) else { return nil }
        let folder = final.parent ?? .init(folder: final.folder, path: ".")
        let fd = openat(folder.folder, folder.path, O_WRONLY | KernelCalls.anonymousFile | O_CLOEXEC, mode_t(0o644))
        if fd >= 0 { return PosixFile(fd: fd, path: shown) }
        // Kernels before 3.11 see a folder opened for writing (EISDIR); some filesystems refuse.
        guard errno == EISDIR || errno == EOPNOTSUPP || errno == EINVAL else {
            throw ZincError.io(path: String(shown[..<shown.lastIndex(of: "/")!]), operation: "create a file in", errno: errno)
        }
        anonymousFilesWork.store(false, ordering: .relaxed)
        return nil
    }

    /// Older kernels link anonymous files only by their name under /proc.
    private static let anonymousFilesWork = Atomic<Bool>(access("/proc/self/fd", F_OK) == 0)
    /// Whether an anonymous file of this process has been linked into a folder.
    private static let linkingWorks = Atomic<Bool>(false)

    /// Gives the anonymous `file` the name `destination`; EEXIST when taken. By its
    /// descriptor (AT_EMPTY_PATH), which kernels since 6.10 allow the process that opened
    /// it, and which spares a walk through /proc for each object; older kernels want a
    /// privilege for that and answer ENOENT, and from then on the file's name under
    /// /proc is used.
    private static func linkAnonymous(_ file: PosixFile, as destination: FileStorage.Place) -> Int32 {
        if linksByDescriptor.load(ordering: .relaxed) {
            if linkat(file.fd, "", destination.folder, destination.path, KernelCalls.emptyPath) == 0 { return 0 }
            guard errno == ENOENT else { return -1 }
            linksByDescriptor.store(false, ordering: .relaxed)
        }
        return linkat(AT_FDCWD, "/proc/self/fd/\(file.fd)", destination.folder, destination.path, AT_SYMLINK_FOLLOW)
    }

    private static let linksByDescriptor = Atomic<Bool>(true)
    #endif

    deinit { discard() }

    /// Temporary names only need to be unique among live writers: the pid separates
    /// processes, a counter the writers of one process (no random-number syscall each).
    private static let processID = getpid()
    private static let serial = SerialNumbers()

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try writeTail()
        try file.write(bytes)
        bytesWritten += Int64(bytes.count)
    }

    func append(storedFile path: String) throws {
        try append(localFile: storage.openStored(path))
    }

    func append(localFile: StorageReader) throws {
        guard let source = localFile as? PosixFile else { return try appendChunks(of: localFile) }
        try writeTail()
        let before = try file.status().st_size
        try file.appendContents(of: source)
        bytesWritten += Int64(try file.status().st_size - before)
    }

    /// Fills the pieces on `workers` threads, a block of `blockSize` bytes at a time, each
    /// block written at its own offset: copying an archive's members is the largest single
    /// cost of an import after hashing. Where the file can take direct I/O (see
    /// `direct`), whole pages go from the block straight to the disk; the bytes after
    /// the last whole page are kept (`tail`) and lead the next pieces, so every direct
    /// write stays aligned.
    func append(pieces: [WritePiece], workers: Int?) throws {
        let start = try logicalEnd()
        let layout = PieceLayout(tail.isEmpty ? pieces : [.bytes(tail)] + pieces, at: tail.isEmpty ? start : tailOffset)
        let direct = self.direct  // read once: a lazy property is no place for threads
        let page = Int64(Self.pageSize)
        let kept = direct == nil ? layout.end : max(layout.start, layout.end / page * page)
        let cuts = Self.blockCuts(from: layout.start, to: kept)
        let buffers = self.buffers  // read once, like `direct`
        if direct != nil { allocate(layout.start..<layout.end) }
        let directWorks = Atomic<Bool>(true)
        let open: @Sendable (String) throws -> PosixFile = { [storage] path in try storage.openStored(path) }
        let file = self.file
        _ = try parallelMap(count: cuts.count - 1, workers: workers) { i in
            let range = cuts[i]..<cuts[i + 1]
            try buffers.withBuffer { buffer in
                try layout.fill(buffer, with: range, open: open)
                let block = UnsafeRawBufferPointer(rebasing: buffer[0..<range.count])
                if let direct, range.lowerBound % page == 0, range.count % Int(page) == 0, directWorks.load(ordering: .relaxed) {
                    do {
                        return try direct.write(block, at: range.lowerBound)
                    } catch let error as ZincError where error.errno == EINVAL {
                        // The filesystem wants another alignment: the page cache it is.
                        directWorks.store(false, ordering: .relaxed)
                    }
                }
                try file.write(block, at: range.lowerBound)
            }
        }
        tail = [UInt8](repeating: 0, count: Int(layout.end - kept))
        try tail.withUnsafeMutableBytes { try layout.fill($0, with: kept..<layout.end, open: open) }
        tailOffset = kept
        try seek(to: kept)
        bytesWritten += layout.end - start
    }

    private static let blockSize: Int64 = 1 << 20
    private static let pageSize = 4096

    /// The offsets where `start..<end` is cut into blocks, both ends included: at every
    /// multiple of `blockSize` between them.
    private static func blockCuts(from start: Int64, to end: Int64) -> [Int64] {
        var cuts = [start]
        while cuts[cuts.count - 1] < end {
            cuts.append(min(end, (cuts[cuts.count - 1] / blockSize + 1) * blockSize))
        }
        return cuts
    }

    /// Allocates `range` of the file ahead of the direct writes that fill it. A direct
    /// write past the end of the file, or into a hole, holds the file's lock until the
    /// disk has it, so the lanes took turns on that lock. Into allocated space they write
    /// side by side. Where the filesystem cannot allocate, they still take turns.
    private func allocate(_ range: Range<Int64>) {
        #if os(Linux)
        guard !range.isEmpty else { return }
        _ = KernelCalls.allocate(file.fd, offset: range.lowerBound, length: Int64(range.count))
        #endif
    }

    /// The blocks `append(pieces:)` fills, kept from one batch to the next: an archive is
    /// appended a thousand members at a time, and fresh blocks for each batch were faulted
    /// in again and, freed, left 1 MiB holes in the one heap that the manifest encoded
    /// beside the archive allocates from.
    private lazy var buffers = AlignedBuffers(size: Int(Self.blockSize), alignment: Self.pageSize)

    /// What the last `append(pieces:)` left unwritten: the bytes after its last whole
    /// page, which belong at `tailOffset`.
    private var tail = [UInt8]()
    private var tailOffset: Int64 = 0

    /// Where the next byte goes: after the tail, if one is kept.
    private func logicalEnd() throws -> Int64 {
        tail.isEmpty ? Int64(try file.status().st_size) : tailOffset + Int64(tail.count)
    }

    /// Writes the kept tail, before anything else is appended or the file is committed.
    private func writeTail() throws {
        guard !tail.isEmpty else { return }
        try tail.withUnsafeBytes { try file.write($0, at: tailOffset) }
        try seek(to: tailOffset + Int64(tail.count))
        tail = []
    }

    /// Moves the file position, where sequential writes continue.
    private func seek(to offset: Int64) throws {
        guard lseek(file.fd, off_t(offset), SEEK_SET) == offset else {
            throw ZincError.io(path: file.path, operation: "seek", errno: errno)
        }
    }

    /// A second descriptor of the file, for direct I/O (`O_DIRECT`), opened on the first
    /// pieces; nil where that is refused, and everywhere but Linux. Writing an archive
    /// through the page cache costs a copy into fresh pages and a write-back later, several
    /// times the system time of writing directly, and the threads' buffered writes to one
    /// file queue on its lock. The archive is read back only by later commands.
    private lazy var direct: PosixFile? = {
        #if os(Linux)
        let fd = Glibc.open("/proc/self/fd/\(file.fd)", O_WRONLY | O_CLOEXEC | KernelCalls.directIO)
        return fd >= 0 ? PosixFile(fd: fd, path: file.path) : nil
        #else
        return nil
        #endif
    }()

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        precondition(open, "commit on a closed writer")
        let final = storage.absolute(path)
        defer { discard() }
        try writeTail()
        #if os(Linux)
        if temporaryPath == nil {
            if condition == .ifAbsent {
                // linkat never replaces an existing file: the object written first stays.
                guard Self.linkAnonymous(file, as: storage.place(path)) == 0 else {
                    if errno == EEXIST { return .conditionFailed }
                    throw ZincError.io(path: final, operation: "create", errno: errno)
                }
                open = false
                FaultInjection.changed(path)
                return .written
            }
            // Replacing needs a name to rename from.
            let temporary = Self.temporaryName(beside: final)
            guard Self.linkAnonymous(file, as: .init(folder: AT_FDCWD, path: temporary)) == 0 else {
                throw ZincError.io(path: temporary, operation: "create", errno: errno)
            }
            temporaryPath = temporary
        }
        #endif
        let temporary = temporaryPath!
        try DurableBatch.handOver(file)
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
