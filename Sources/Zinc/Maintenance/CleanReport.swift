#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `clean` found, and whether it removed it.
public struct CleanReport: Equatable, Sendable {
    /// A file no committed version refers to.
    public struct Garbage: Equatable, Sendable {
        public let path: String
        public let size: Int64
    }

    /// Files kept for now, of one kind, and what they wait for.
    public struct Waiting: Equatable, Sendable {
        /// What is known of how the files came to be out of the index.
        public enum Reason: Equatable, Sendable {
            /// A record says when the index stopped listing them.
            case leftIndex
            /// An interrupted import wrote them and never committed them: no index
            /// listed them. Kept for the grace period from the interruption.
            case neverListed
            /// No record says when they left the index (or whether it ever listed them):
            /// they are taken to have left it now, and recorded so by a forced run.
            case unrecorded
        }

        public let reason: Reason
        public let files: [Garbage]
        /// The earliest time of the group (when its first file left the index, or was
        /// left by its import; now for `unrecorded`).
        public let since: Date
        /// When the last of them may be removed.
        public let until: Date

        public var bytes: Int64 { files.reduce(0) { $0 + $1.size } }
    }

    /// In removal order: manifest signatures, LMFO records, manifests, archives, objects, then abandoned temporary files
    /// and stale lock objects.
    public let files: [Garbage]
    /// Unreferenced files out of the index for less than the grace period: a client may
    /// still hold an index that lists them. They stay until `waitingUntil`.
    public let waiting: [Garbage]
    /// `waiting` by reason, in the order of `Waiting.Reason`'s cases; groups are never empty.
    public let waitingGroups: [Waiting]
    /// When the last of `waiting` may be removed; nil when nothing waits.
    public let waitingUntil: Date?
    /// False for a dry run.
    public let removed: Bool

    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }
    public var waitingBytes: Int64 { waiting.reduce(0) { $0 + $1.size } }
}
