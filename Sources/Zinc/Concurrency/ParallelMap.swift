import Dispatch
import Synchronization

/// Runs `body` for each index on `workers` threads (nil: one per available core, see
/// `AvailableCores`), and returns the results in index order, so output never depends
/// on scheduling. When some calls fail, the error of the lowest failing index is thrown
/// (the same error a sequential run would stop at). Lanes are real threads, not
/// Dispatch's core-wide pool, so more workers than cores really run at once: requests
/// to a remote store spend their time waiting, not computing.
package func parallelMap<T: Sendable>(
    count: Int,
    workers: Int?,
    _ body: @escaping @Sendable (Int) throws -> T
) throws -> [T] {
    guard count > 0 else { return [] }
    let state = ParallelState<T>(count: count)
    let lanes = max(1, min(workers ?? AvailableCores.count, count))
    let work: @Sendable () -> Void = {
        while let index = state.nextIndex() {
            do {
                state.store(try body(index), at: index)
            } catch {
                state.fail(error, at: index)
            }
        }
    }
    let finished = DispatchGroup()
    for _ in 1..<lanes {
        finished.enter()
        WorkerThread.start {
            work()
            finished.leave()
        }
    }
    work()
    finished.wait()
    return try state.results()
}

/// The lanes' shared results: the next index to hand out, each lane's values, and the
/// lowest failing index with its error.
private final class ParallelState<T: Sendable>: Sendable {
    private struct Progress {
        var next = 0
        var values: [T?]
        var firstError: (index: Int, error: any Error)?
    }

    private let count: Int
    private let progress: Mutex<Progress>

    init(count: Int) {
        self.count = count
        progress = Mutex(Progress(values: Array(repeating: nil, count: count)))
    }

    func nextIndex() -> Int? {
        progress.withLock { progress in
            guard progress.next < count, progress.firstError == nil else { return nil }
            defer { progress.next += 1 }
            return progress.next
        }
    }

    func store(_ value: T, at index: Int) {
        progress.withLock { $0.values[index] = value }
    }

    func fail(_ error: any Error, at index: Int) {
        progress.withLock { progress in
            if let first = progress.firstError, first.index < index { return }
            progress.firstError = (index, error)
        }
    }

    func results() throws -> [T] {
        try progress.withLock { progress in
            if let firstError = progress.firstError { throw firstError.error }
            return progress.values.map { $0! }
        }
    }
}
