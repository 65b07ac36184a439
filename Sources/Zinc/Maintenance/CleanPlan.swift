/// What a ``CatalogClean`` removes and keeps, decided before anything changes, under the
/// import lock: ``CatalogClean/run(progress:)`` carries out the plan it makes under its
/// lock, and ``CatalogClean/plan()`` (the dry run) returns the one it made under its own.
/// A plan cannot be carried out once out of the lock it was made under: by then an import
/// may refer to what it lists.
public struct CleanPlan: Sendable {
    /// One thing to remove: a file by its path, or a write never committed by its handle.
    enum Removal: Sendable {
        case file(CleanReport.Garbage)
        case abandonedWrite(AbandonedWrite)

        /// How the report shows it.
        var garbage: CleanReport.Garbage {
            switch self {
            case .file(let file): return file
            case .abandonedWrite(let write): return CleanReport.Garbage(path: write.displayPath, size: write.size)
            }
        }
    }

    let now: Int64
    /// Removable now, in removal order.
    let removals: [Removal]
    let waitingGroups: [CleanReport.Waiting]
    /// Waiting files no record names yet: a forced run records them at `now`.
    let unrecorded: [String]
    /// Records every file of which is gone, removable or listed again, and damaged ones.
    let spentRecords: [String]

    /// The plan as a dry run reports it: what would be removed and what waits.
    public var report: CleanReport { report(removed: false) }

    func report(removed: Bool) -> CleanReport {
        CleanReport(
            files: removals.map(\.garbage), waiting: waitingGroups.flatMap(\.files), waitingGroups: waitingGroups,
            waitingUntil: waitingGroups.map(\.until).max(), removed: removed)
    }
}
