#if os(Linux)
import Glibc

/// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module
/// does not import. They are looked up once by symbol instead of through a C shim.
package enum KernelCalls {
    private typealias SyncfsFunction = @convention(c) (Int32) -> Int32
    private typealias CopyFileRangeFunction =
        @convention(c) (
            Int32, UnsafeMutablePointer<Int64>?, Int32,
            UnsafeMutablePointer<Int64>?, Int, UInt32
        ) -> Int

    private typealias Renameat2Function = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private typealias SchedGetaffinityFunction = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
    private typealias FallocateFunction = @convention(c) (Int32, Int32, Int64, Int64) -> Int32

    /// O_DIRECT, whose value depends on the architecture.
    #if arch(arm64) || arch(arm)
    package static let directIO: Int32 = 0o200000
    #elseif arch(powerpc64le) || arch(powerpc64)
    package static let directIO: Int32 = 0o400000
    #else
    package static let directIO: Int32 = 0o40000
    #endif

    /// AT_EMPTY_PATH: the call acts on the descriptor itself.
    package static let emptyPath: Int32 = 0x1000

    /// O_NOATIME (the same value on every Linux architecture Swift runs on).
    static let openWithoutAccessTime: Int32 = 0o1000000

    /// O_TMPFILE: `__O_TMPFILE | O_DIRECTORY` (the first has the same value on every Linux
    /// architecture Swift runs on): an unnamed file in the folder opened.
    package static let anonymousFile: Int32 = 0o20000000 | O_DIRECTORY

    /// lseek's SEEK_DATA and SEEK_HOLE whences (Linux values; Darwin swaps them).
    static let seekData: Int32 = 3
    static let seekHole: Int32 = 4

    private static let syncfsFunction: SyncfsFunction? = lookup("syncfs")
    private static let renameat2Function: Renameat2Function? = lookup("renameat2")
    private static let copyFileRangeFunction: CopyFileRangeFunction? = lookup("copy_file_range")
    private static let schedGetaffinityFunction: SchedGetaffinityFunction? = lookup("sched_getaffinity")
    private static let fallocateFunction: FallocateFunction? = lookup("fallocate64")

    private static func lookup<F>(_ name: String) -> F? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: F.self)
    }

    /// Flushes the whole filesystem holding `fd`; falls back to fsync of `fd` alone.
    package static func syncfs(_ fd: Int32) -> Int32 {
        syncfsFunction?(fd) ?? fsync(fd)
    }

    /// Renames `source` to `destination` only if nothing is there yet (EEXIST otherwise),
    /// in one step. -1 with ENOSYS or EINVAL where the kernel or filesystem lacks it.
    package static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        guard let rename = renameat2Function else {
            errno = ENOSYS
            return -1
        }
        let noReplace: UInt32 = 1
        return rename(AT_FDCWD, source, AT_FDCWD, destination, noReplace)
    }

    /// Copies at the given offsets (advancing them), or at the files' current offsets
    /// when nil; -1 with ENOSYS when the call is unavailable.
    static func copyFileRange(from source: Int32, to destination: Int32, length: Int) -> Int {
        guard let copy = copyFileRangeFunction else {
            errno = ENOSYS
            return -1
        }
        return copy(source, nil, destination, nil, length, 0)
    }

    /// Allocates `length` bytes of `fd` from `offset` (unwritten: they read as zeros),
    /// growing the file to cover them; -1 with EOPNOTSUPP where the filesystem cannot,
    /// ENOSYS where the call is missing. Unlike `posix_fallocate` it never falls back
    /// to writing zeros.
    package static func allocate(_ fd: Int32, offset: Int64, length: Int64) -> Int32 {
        guard let allocate = fallocateFunction else {
            errno = ENOSYS
            return -1
        }
        return allocate(fd, 0, offset, length)
    }

    /// How many CPUs the calling thread may run on (its affinity mask, which threads
    /// inherit from the one that starts them); nil when it cannot be read.
    package static func allowedCPUCount() -> Int? {
        guard let getAffinity = schedGetaffinityFunction else { return nil }
        // Room for 1,024 CPUs, glibc's cpu_set_t; a larger machine gets EINVAL, hence nil.
        var mask = [UInt64](repeating: 0, count: 16)
        let status = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress!) }
        guard status == 0 else { return nil }
        let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        return count > 0 ? count : nil
    }
}
#endif
