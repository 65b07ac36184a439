import Dispatch
import Synchronization

/// Runs `body` for each index on `workers` threads (nil: one per available core, see
/// `AvailableCores`), and returns the results in index order, so output never depends
/// on scheduling. When some calls fail, the error of the lowest failing index is thrown
/// (the same error a sequential run would stop at). Lanes are real threads, not
/// Dispatch's core-wide pool, so more workers than cores really run at once: requests
/// to a remote store spend their time waiting, not computing.
package func parallelMap<T>(count: Int, workers: Int?, _ body: (Int) throws -> T) throws -> [T] {
    guard count > 0 else { return [] }
    let state = ParallelState<T>(count: count)
    let lanes = max(1, min(workers ?? AvailableCores.count, count))
    withoutActuallyEscaping(body) { body in
        // The threads outlive this call a little (until they are torn down), so they hold
        // the body through a box that lets go of it once every lane is done.
        let box = ReleasableBox(body)
        defer { box.value = nil }
        let work: @Sendable () -> Void = {
            while let index = state.nextIndex() {
                do {
                    state.store(try box.value!(index), at: index)
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
    }
    return try state.results()
}

/// The lanes' shared results. Unchecked: `T` need not be `Sendable`, but each value is
/// handed over under `lock`, and read by the caller only after every lane is done.
private final class ParallelState<T>: @unchecked Sendable {
    /// Guards the fields below.
    private let lock = Mutex(())
    private var next = 0
    private let count: Int
    private var values: [T?]
    private var firstError: (index: Int, error: Error)?

    init(count: Int) {
        self.count = count
        values = Array(repeating: nil, count: count)
    }

    func nextIndex() -> Int? {
        lock.withLock { _ in
            guard next < count, firstError == nil else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ value: T, at index: Int) {
        lock.withLock { _ in values[index] = value }
    }

    func fail(_ error: Error, at index: Int) {
        lock.withLock { _ in
            if firstError == nil || index < firstError!.index { firstError = (index, error) }
        }
    }

    func results() throws -> [T] {
        if let firstError { throw firstError.error }
        return values.map { $0! }
    }
}

/// The body the lanes call. Unchecked: written only before the lanes start and after
/// they end.
private final class ReleasableBox<T>: @unchecked Sendable {
    var value: T?
    init(_ value: T) { self.value = value }
}
