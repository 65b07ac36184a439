#if os(Linux)
import Glibc

/// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module
/// does not import. They are looked up once by symbol instead of through a C shim.
enum KernelCalls {
    private typealias SyncfsFunction = @convention(c) (Int32) -> Int32
    private typealias CopyFileRangeFunction = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32,
                                                              UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int

    private static let syncfsFunction: SyncfsFunction? = lookup("syncfs")
    private static let copyFileRangeFunction: CopyFileRangeFunction? = lookup("copy_file_range")

    private static func lookup<F>(_ name: String) -> F? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: F.self)
    }

    /// Flushes the whole filesystem holding `fd`; falls back to fsync of `fd` alone.
    static func syncfs(_ fd: Int32) -> Int32 {
        syncfsFunction?(fd) ?? fsync(fd)
    }

    /// Copies at the given offsets (advancing them), or at the files' current offsets
    /// when nil; -1 with ENOSYS when the call is unavailable.
    static func copyFileRange(from source: Int32, at sourceOffset: UnsafeMutablePointer<Int64>? = nil,
                              to destination: Int32, at destinationOffset: UnsafeMutablePointer<Int64>? = nil,
                              length: Int) -> Int {
        guard let copy = copyFileRangeFunction else {
            errno = ENOSYS
            return -1
        }
        return copy(source, sourceOffset, destination, destinationOffset, length, 0)
    }
}
#endif
