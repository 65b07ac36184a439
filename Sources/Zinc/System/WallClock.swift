#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Times that other processes and machines compare with their own clocks (lock
/// refreshes, when files left the index): milliseconds since 1970, UTC.
enum WallClock {
    static func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

extension Duration {
    /// The duration in seconds, for reports and intervals that take a `Double`.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
