import Logging
import Synchronization

/// What a run's writes assembled in a store, counted from many writes at once, and
/// whether the store's refusal to copy parts was said yet: a run says it once, however
/// many files it then uploads whole.
final class AssemblyTally: Sendable {
    private let state = Mutex<(files: Int, bytes: Int64, refused: Bool)>((0, 0, false))

    var assembled: (files: Int, bytes: Int64) { state.withLock { ($0.files, $0.bytes) } }

    /// What an assembly of `plan` in `store` came to for the writer: the file is in place
    /// (`.written`) or another writer's is (`.conditionFailed`), or nil when it is to go
    /// up whole (the store refuses part copies, or a part did not hold the local bytes),
    /// which is said in `logger`.
    func settle(_ result: AssemblyResult, of plan: AssemblyPlan, in store: CatalogStorage, logger: Logger) -> CommitResult? {
        switch result {
        case .written:
            state.withLock {
                $0.files += 1
                $0.bytes += plan.copiedBytes
            }
            return .written
        case .conditionFailed:
            return .conditionFailed
        case .refused(let reason):
            let first = state.withLock { state in
                defer { state.refused = true }
                return !state.refused
            }
            if first {
                logger.notice("\(store.location) does not copy parts in the bucket (\(reason)): uploading whole files instead")
            }
            return nil
        case .mismatch(let reason):
            logger.notice("\(reason): uploading \(plan.path) whole instead")
            return nil
        }
    }
}
