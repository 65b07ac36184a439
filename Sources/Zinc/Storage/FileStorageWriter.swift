import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file being written beside its final one (a `ScratchFile`: on Linux an unnamed
/// file in the final folder, linked into place at commit), with what a catalog's writes
/// add: missing folders created, the compare-and-swap of a commit, and the batches of
/// pieces an archive is assembled from.
final class FileStorageWriter: StorageWriter {
    let path: String
    private let storage: FileStorage
    private let scratch: ScratchFile
    private var file: PosixFile { scratch.file }
    private var open = true
    private(set) var bytesWritten: Int64 = 0

    init(storage: FileStorage, path: String) throws {
        self.storage = storage
        self.path = path
        let final = storage.absolute(path)
        // Folders are created only when missing: most objects land in existing ones.
        if storage.parentIsLikelyMissing(of: path) { try storage.createParentFolders(of: path) }
        do {
            scratch = try ScratchFile(becoming: final, at: storage.place(path))
        } catch let error as ZincError where error.errno == ENOENT {
            try storage.createParentFolders(of: path)
            scratch = try ScratchFile(becoming: final, at: storage.place(path))
        }
    }

    deinit { discard() }

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
        defer { discard() }
        try writeTail()
        let written: Bool
        switch condition {
        case .always:
            written = try scratch.install(replacing: true)
        case .ifAbsent:
            // The object written first stays, byte for byte.
            written = try scratch.install(replacing: false)
        case .ifMatch(let expected):
            // Every compare-and-swap of this folder takes the commit lock, so nothing
            // can commit to the path between this check and the rename.
            written = try storage.withLock(FileStorage.commitLockFileName, LOCK_EX) {
                guard try storage.currentVersion(of: path) == expected else { return false }
                return try scratch.install(replacing: true)
            }
        }
        guard written else { return .conditionFailed }
        FaultInjection.changed(path)
        return .written
    }

    /// A file not committed leaves nothing behind.
    func discard() {
        guard open else { return }
        open = false
        scratch.discard()
    }
}
