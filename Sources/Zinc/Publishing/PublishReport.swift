#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a ``CatalogPublish`` did or, as its plan's report (the dry run), would do.
public struct PublishReport: Equatable, Sendable {
    /// Files copied (or to copy), in upload order; the index files are not among them.
    public let uploaded: [StorageEntry]
    /// How many of them were (or would be) assembled at the destination, mostly from
    /// bytes it held already (see ``AssemblyPlan``).
    public let assembled: Int
    /// The bytes of those copied there rather than sent.
    public let copiedBytes: Int64
    /// Files already at the destination with the same content.
    public let unchanged: Int
    /// Whether the destination's index was (or would be) replaced.
    public let indexChanged: Bool
    /// Files removed by `--delete` (what the source no longer has), or that a dry run's
    /// `--delete` would remove.
    public let deleted: [StorageEntry]
    /// Files the source no longer has that stay for clients holding an older index,
    /// until `waitingUntil` (a later `publish --delete` or `clean --force` removes them).
    public let waiting: Int
    public let waitingUntil: Date?
    /// `waiting` by kind, as the destination's clean found them (see `CleanReport`).
    public let waitingGroups: [CleanReport.Waiting]
    /// The files of the versions the new index no longer lists, recorded at the
    /// destination as having left its index then (a dry run: that would be).
    public let retired: [String]
    /// False for a dry run.
    public let performed: Bool

    /// The bytes sent: the uploaded files' sizes, less what was copied at the destination.
    public var uploadedBytes: Int64 { uploaded.reduce(0) { $0 + $1.size } - copiedBytes }
    public var deletedBytes: Int64 { deleted.reduce(0) { $0 + $1.size } }
}
