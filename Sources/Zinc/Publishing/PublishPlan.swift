/// What a ``CatalogPublish`` would do now: its dry run. ``CatalogPublish/run(progress:)``
/// makes the same uploads plan from a listing of each side, and the destination's clean
/// makes its plan again under the import lock it removes under: a plan is a value to
/// print, never carried out on its own.
public struct PublishPlan: Sendable {
    /// Files to copy, in upload order; the index files are not among them.
    public let uploads: [StorageEntry]
    /// How the uploads whose bytes are mostly at the destination would be assembled
    /// there (a bucket that copies parts), by path.
    public let assemblies: [AssemblyPlan]
    /// Files already at the destination with the same content.
    public let unchanged: Int
    /// Whether the destination's index would be replaced.
    public let indexChanged: Bool
    /// The files of the versions the new index would no longer list, which a run records
    /// at the destination as leaving its index then.
    public let retired: [String]
    /// With `delete`, at a destination that holds a catalog: the clean that would follow
    /// the new index, with the files of `retired` taken to leave the index now.
    public let clean: CleanPlan?
    /// What `delete` would remove: what `clean` would, and the files outside the
    /// catalog's folders (flavorspecs, config) the source no longer has.
    public let deleted: [StorageEntry]

    /// The plan as a dry run reports it.
    public var report: PublishReport {
        let cleaned = clean?.report
        return PublishReport(
            uploaded: uploads, assembled: assemblies.count, copiedBytes: assemblies.reduce(0) { $0 + $1.copiedBytes },
            unchanged: unchanged, indexChanged: indexChanged, deleted: deleted,
            waiting: cleaned?.waiting.count ?? 0, waitingUntil: cleaned?.waitingUntil,
            waitingGroups: cleaned?.waitingGroups ?? [], retired: retired, performed: false)
    }
}
