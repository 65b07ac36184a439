import ArgumentParser
import Zinc

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

/// `--grace SECONDS`: how long `clean` keeps files after they left the index.
struct GraceOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep unreferenced files until they have been out of the index this many seconds.",
            discussion:
                "The default is the index's cache lifetime: a client or CDN may hold an index that lists them that long. 0 removes them at once (no cache in front of the catalog)."
        ))
    var grace: Int = Int(Catalog.indexCacheLifetime.components.seconds)

    /// A century: far beyond any cache, and far from overflowing the milliseconds the
    /// records count in.
    static let longest = 100 * 365 * 24 * 3600

    func validate() throws {
        guard (0...Self.longest).contains(grace) else {
            throw ValidationError("--grace must be from 0 to \(Self.longest) seconds (a century), not \(grace)")
        }
    }

    var duration: Duration { .seconds(grace) }

    /// "5 minutes", "90 seconds": a grace period as a person says it.
    static func describe(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds >= 60 && seconds % 60 == 0 { return "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" }
        return "\(seconds) second\(seconds == 1 ? "" : "s")"
    }

    /// A moment as `2026-11-24 07:20:00 UTC`.
    static func describe(_ date: Date) -> String {
        UTCMoment.describe(Int64(date.timeIntervalSince1970.rounded(.up)))
    }
}
