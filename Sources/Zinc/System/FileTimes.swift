#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `stat`'s times under one name on every system: Linux calls them `st_mtim`,
/// Darwin `st_mtimespec`.
extension stat {
    package var modificationTime: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }

    package var statusChangeTime: timespec {
        #if canImport(Darwin)
        st_ctimespec
        #else
        st_ctim
        #endif
    }

    package var accessTime: timespec {
        #if canImport(Darwin)
        st_atimespec
        #else
        st_atim
        #endif
    }
}

extension timespec {
    /// Nanoseconds since the epoch.
    package var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
