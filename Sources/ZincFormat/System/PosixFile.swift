import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An owned POSIX file descriptor. Zinc talks to the kernel directly so it can stream
/// files of any size in fixed-size chunks and use kernel-side copies. Sendable: its
/// only state is the descriptor and its name, both constant, and the kernel takes calls
/// on one descriptor from several threads (lanes write their own ranges with `pwrite`).
package final class PosixFile: Sendable {
    package let fd: Int32
    package let path: String

    package init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Opens `path` with `open(2)` (close-on-exec).
    package static func open(_ path: String, flags: Int32 = O_RDONLY, mode: mode_t = 0o644) throws -> PosixFile {
        let fd = path.withCString { posixOpen($0, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw ZincError.io(path: path, operation: "open", errno: errno) }
        return PosixFile(fd: fd, path: path)
    }

    /// Opens `path` for reading without updating its access time where the kernel lets
    /// this process (it must own the file): reading a tree or a catalog's objects then
    /// leaves their inodes clean instead of queueing one inode write per file. After
    /// the first refusal the flag is not tried again, so a tree owned by someone else
    /// costs one extra call, not one per file.
    package static func openForReading(_ path: String) throws -> PosixFile {
        try openForReading(path, in: AT_FDCWD, shownAs: path)
    }

    /// Like `openForReading(_:)`, for `path` relative to the open folder `folder`
    /// (`AT_FDCWD`: the current one); `shown` names the file in messages.
    package static func openForReading(_ path: String, in folder: Int32, shownAs shown: String) throws -> PosixFile {
        let fd = openLeavingAccessTime(path, in: folder, flags: O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZincError.io(path: shown, operation: "open", errno: errno) }
        return PosixFile(fd: fd, path: shown)
    }

    /// `openat(folder, path, flags)` with `O_NOATIME` where the kernel allows it (see
    /// `openForReading`); folders are opened so too, since listing one updates its
    /// access time like reading a file. -1 with errno set on failure.
    package static func openLeavingAccessTime(_ path: String, in folder: Int32, flags: Int32) -> Int32 {
        #if os(Linux)
        if !accessTimeFlagRefused.load(ordering: .relaxed) {
            let fd = openat(folder, path, flags | KernelCalls.openWithoutAccessTime)
            guard fd < 0, errno == EPERM else { return fd }
            accessTimeFlagRefused.store(true, ordering: .relaxed)
        }
        #endif
        return openat(folder, path, flags)
    }

    #if os(Linux)
    private static let accessTimeFlagRefused = Atomic<Bool>(false)
    #endif

    deinit { close(fd) }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = posixRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ZincError.io(path: path, operation: "read", errno: errno)
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`, without moving the file position;
    /// 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ZincError.io(path: path, operation: "read", errno: errno)
        }
    }

    /// Writes all of `bytes` at the current offset.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw ZincError.io(path: path, operation: "write", errno: errno)
            }
            offset += n
        }
    }

    /// Writes all of `bytes` at the current offset.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Makes the file's content durable: `fsync(2)`, which on Apple systems leaves it in
    /// the drive's cache (a power cut may lose it, or keep a rename that names it and not
    /// the data), so there `F_FULLFSYNC` first, fsync where a file system refuses it.
    package func synchronize() throws {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw ZincError.io(path: path, operation: "sync", errno: errno) }
    }

    /// The file's `fstat(2)`.
    package func status() throws -> stat {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ZincError.io(path: path, operation: "stat", errno: errno) }
        return st
    }

    /// Streams the file's lines (each ended by "\n", which `body` does not see) in 64 KiB
    /// reads, so memory stays at one chunk and one line whatever the file's length. After
    /// `body` returns false it sees no more lines. Returns false then, or when the last
    /// line has no "\n".
    package func forEachLine(_ body: (ArraySlice<UInt8>) throws -> Bool) throws -> Bool {
        var pending = [UInt8]()
        var stopped = false
        try forEachChunk(chunkSize: 1 << 16) { chunk in
            guard !stopped else { return }
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                guard try body(pending[start..<newline]) else {
                    stopped = true
                    return
                }
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        return !stopped && pending.isEmpty
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes it read. From
    /// the current position, or from `offset` without moving it.
    package func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64? = nil) throws -> Int {
        var count = 0
        while count < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
            let n = try offset.map { try read(into: rest, at: $0 + Int64(count)) } ?? read(into: rest)
            if n == 0 { break }
            count += n
        }
        return count
    }

    /// Reads until end of file or `limit` bytes, whichever comes first, from the current
    /// position, or from `offset` without moving it. The array is not zeroed first: only
    /// the bytes read are kept.
    package func readAll(upTo limit: Int, at offset: Int64? = nil) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
            count = try readFully(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
    }

    /// Writes all of `bytes` at `offset` without moving the file position, so several
    /// threads can fill disjoint parts of one file.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ZincError.io(path: path, operation: "write", errno: errno)
            }
            done += n
        }
    }

    /// Writes all of `bytes` at `offset` without moving the file position.
    package func write(_ bytes: [UInt8], at offset: Int64) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }

    /// Appends the whole of `source` to this file, in the kernel where possible
    /// (copy_file_range shares extents on filesystems that support it).
    package func appendContents(of source: PosixFile) throws {
        #if os(Linux)
        while true {
            let n = KernelCalls.copyFileRange(from: source.fd, to: fd, length: 1 << 30)
            if n > 0 { continue }
            if n == 0 { return }
            if errno == EINTR { continue }
            if errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL { break }
            throw ZincError.io(path: source.path, operation: "copy", errno: errno)
        }
        #endif
        try source.forEachChunk { try write($0) }
    }
}

// The Swift overlay exposes these under the same names as our methods; aliases keep call sites unambiguous.
@inline(__always) private func posixOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
@inline(__always) private func posixRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buf, count)
}
@inline(__always) private func posixWrite(_ fd: Int32, _ buf: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buf, count)
}

/// A file is read as any stored file is, `forEachChunk` included.
extension PosixFile: StorageReader {}
