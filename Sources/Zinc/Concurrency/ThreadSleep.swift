#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocks the calling thread for `duration` (nothing for zero or less): the pauses of
/// retry loops, which run on plain threads where `Task.sleep` cannot be awaited. A
/// signal that interrupts the pause does not shorten it.
package func sleepThread(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR {
        request = remaining
    }
}
