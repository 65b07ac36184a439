import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened for sending, with the attributes read from the open descriptor.
///
/// Reading size and times with `fstat` on the descriptor that is then streamed means the
/// `ETag`, `Content-Length` and bytes always describe the same file, even when an index file is
/// replaced by rename in between: the old inode stays readable until it is closed.
struct OpenedFile: Sendable {
    let handle: NIOFileHandle
    let size: Int
    let validators: FileValidators
    /// The path relative to the catalog root as requested, which decides caching and type.
    let catalogPath: [String]

    enum OpenError: Error, Equatable {
        case notFound
        case forbidden
        case failed(errno: Int32)
    }

    /// Opens a path that `ServedRoot` has already resolved and checked. Blocking: call it on
    /// the file I/O thread pool.
    static func open(_ resolution: ServedRoot.Resolution) throws(OpenError) -> OpenedFile {
        let path = resolution.filePath
        // O_NOFOLLOW: the checked path must not turn into a symlink before the open.
        // O_NONBLOCK: opening a FIFO must not hang a pool thread; it is refused below anyway.
        let descriptor = path.withCString { systemOpen($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard descriptor >= 0 else { throw error(forErrno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let failure = errno
            close(descriptor)
            throw error(forErrno: failure)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notFound
        }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        let size = Int(info.st_size)
        return OpenedFile(
            handle: NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor),
            size: size,
            validators: FileValidators(
                inode: UInt64(info.st_ino),
                size: size,
                modifiedSeconds: Int(modified.tv_sec),
                modifiedNanoseconds: Int(modified.tv_nsec)
            ),
            catalogPath: resolution.catalogPath
        )
    }

    static func error(forErrno code: Int32) -> OpenError {
        switch code {
        case ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG: .notFound
        case EACCES, EPERM: .forbidden
        default: .failed(errno: code)
        }
    }
}

/// Inside `OpenedFile` the name `open` means the static method; this reaches the C function.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}
