import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives a file a second name without storing its bytes twice where the file system
/// allows: a hard link (one inode, two names), else a clone (a new inode sharing the
/// first one's blocks until either is written: `clonefile` on APFS, `FICLONE` on btrfs
/// and XFS), else a copy, in the kernel where it can (`copy_file_range`).
///
/// The Darwin branch (`clonefile`) is built and tested on Linux through the same API
/// only by its fallbacks: on Apple systems it is untested (see docs/FORMAT.md, Seeds).
enum FileClone {
    /// How a file was placed, for reports: only a copy stored its bytes again.
    enum Method: Sendable {
        case linked
        case cloned
        case copied
    }

    /// Creates `destination` (which must not exist) with the content of the regular file
    /// `source`, and returns how. A hard link shares everything with `source`, its mode and
    /// any later write included, so it is used only when `linkable`; a clone or a copy
    /// gets `mode`. On Apple systems a clone comes first: it costs no byte either and
    /// leaves `source`'s inode alone. Whatever fails leaves no `destination`.
    static func place(_ source: String, at destination: String, linkable: Bool, mode: mode_t) throws -> Method {
        #if canImport(Darwin)
        if try clone(source, to: destination, mode: mode) { return .cloned }
        #endif
        if linkable, link(source, destination) == 0 { return .linked }
        return try cloneOrCopy(source, to: destination, mode: mode, triedClone: true)
    }

    /// Creates `destination` (which must not exist) with `mode` and the content of
    /// `source`: a clone where the file system can make one, a copy otherwise.
    static func cloneOrCopy(_ source: String, to destination: String, mode: mode_t) throws -> Method {
        try cloneOrCopy(source, to: destination, mode: mode, triedClone: false)
    }

    private static func cloneOrCopy(_ source: String, to destination: String, mode: mode_t, triedClone: Bool) throws -> Method {
        #if canImport(Darwin)
        if !triedClone, try clone(source, to: destination, mode: mode) { return .cloned }
        #endif
        let input = try PosixFile.openForReading(source)
        let output = try PosixFile.open(destination, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
        do {
            var method = Method.copied
            #if os(Linux)
            // FICLONE, _IOW(0x94, 9, int): a new inode sharing every block of the source.
            // It fails (EOPNOTSUPP on ext4 and tmpfs, EXDEV across file systems) where no
            // clone can be made, and then the bytes are copied.
            if ioctl(output.fd, UInt(0x4004_9409), CInt(input.fd)) == 0 { method = .cloned }
            #endif
            if method == .copied { try output.appendContents(of: input) }
            // The umask may have taken bits from `mode`; an object must have exactly these.
            guard fchmod(output.fd, mode) == 0 else { throw ZincError.io(path: destination, operation: "chmod", errno: errno) }
            return method
        } catch {
            unlink(destination)
            throw error
        }
    }

    #if canImport(Darwin)
    /// `clonefile`, then `mode`; false where the file system cannot clone (not APFS,
    /// another volume), leaving nothing at `destination`.
    private static func clone(_ source: String, to destination: String, mode: mode_t) throws -> Bool {
        guard clonefile(source, destination, 0) == 0 else { return false }
        guard chmod(destination, mode) == 0 else {
            let code = errno
            unlink(destination)
            throw ZincError.io(path: destination, operation: "chmod", errno: code)
        }
        return true
    }
    #endif
}
