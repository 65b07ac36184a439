#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durability for a batch of files, not one flush per file: on Linux, `syncfs` makes the
/// whole batch durable in one call once it is written; where there is no `syncfs`, each
/// file goes to the disk before it has its name, and the drive's cache is emptied once
/// at the end. A writer calls `handOver` for each file before naming it, then `flush`
/// before anything refers to the batch.
package enum DurableBatch {
    /// Hands `file`'s data to the disk where the final `flush` could not reach it.
    package static func handOver(_ file: PosixFile) throws {
        #if !os(Linux)
        guard fsync(file.fd) == 0 else { throw ZincError.io(path: file.path, operation: "sync", errno: errno) }
        #endif
    }

    /// Makes durable every file handed over, and the names given to them, on the file
    /// system holding `folder`.
    package static func flush(fileSystemOf folder: String) throws {
        let opened = try PosixFile.open(folder, flags: O_RDONLY | O_DIRECTORY)
        #if os(Linux)
        guard KernelCalls.syncfs(opened.fd) == 0 else { throw ZincError.io(path: folder, operation: "sync", errno: errno) }
        #else
        try opened.synchronize()
        #endif
    }
}
