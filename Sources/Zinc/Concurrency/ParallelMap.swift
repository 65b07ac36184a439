import Foundation

/// Runs `body` for each index on `workers` threads (nil: one per available core, see
/// `AvailableCores`), and returns the results in index order, so output never depends
/// on scheduling. When some calls fail, the error of the lowest failing index is thrown
/// (the same error a sequential run would stop at).
func parallelMap<T>(count: Int, workers: Int?, _ body: (Int) throws -> T) throws -> [T] {
    guard count > 0 else { return [] }
    let state = ParallelState<T>(count: count)
    let lanes = max(1, min(workers ?? AvailableCores.count, count))
    withoutActuallyEscaping(body) { body in
        let box = UncheckedBox(body)
        DispatchQueue.concurrentPerform(iterations: lanes) { _ in
            while let index = state.nextIndex() {
                do {
                    state.store(try box.value(index), at: index)
                } catch {
                    state.fail(error, at: index)
                }
            }
        }
    }
    return try state.results()
}

private final class ParallelState<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var values: [T?]
    private var firstError: (index: Int, error: Error)?

    init(count: Int) {
        self.count = count
        values = Array(repeating: nil, count: count)
    }

    func nextIndex() -> Int? {
        lock.withLock {
            guard next < count, firstError == nil else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ value: T, at index: Int) {
        lock.withLock { values[index] = value }
    }

    func fail(_ error: Error, at index: Int) {
        lock.withLock {
            if firstError == nil || index < firstError!.index { firstError = (index, error) }
        }
    }

    func results() throws -> [T] {
        if let firstError { throw firstError.error }
        return values.map { $0! }
    }
}

private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
