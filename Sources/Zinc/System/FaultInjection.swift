import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash injection for the tests that prove a kill at any step leaves the catalog (or a
/// client repo) valid: with `ZINC_KILL_AFTER_COMMITS=N` in the environment, the process
/// kills itself with SIGKILL right after its Nth change to a local catalog or repo (a
/// file or folder renamed into place, or deleted), as `kill -9` would. Unset, it costs one comparison per change.
/// Only debug builds (which the tests run) have it: in a release build, `changed` does
/// nothing and the variable is not read. Likewise `ZINC_REFUSE_UNNAMED_FILES=1` makes
/// `ScratchFile` find no unnamed files, as on a file system without them, so that the
/// tests reach its fallback.
package enum FaultInjection {
    #if ZINC_FAULT_INJECTION
    package static let refusesUnnamedFiles = ProcessInfo.processInfo.environment["ZINC_REFUSE_UNNAMED_FILES"] == "1"
    private static let limit: Int? = ProcessInfo.processInfo.environment["ZINC_KILL_AFTER_COMMITS"].flatMap { Int($0) }
    private static let changes = Atomic<Int>(0)

    package static func changed(_ path: String) {
        guard let limit, changes.add(1, ordering: .relaxed).newValue >= limit else { return }
        kill(getpid(), SIGKILL)
    }
    #else
    package static let refusesUnnamedFiles = false
    @inline(__always)
    package static func changed(_ path: String) {}
    #endif
}
