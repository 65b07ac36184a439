/// Runs `body` for each index as child tasks, at most `limit` at once, and returns the
/// results in index order; when some calls fail, the error of the lowest failing index
/// is thrown once every started call has ended (as `parallelMap` does, so a sequential
/// run would stop at the same error). For work that waits on the network: a call in
/// flight holds no thread while it waits, unlike a `parallelMap` lane.
package func concurrentMap<T: Sendable>(
    count: Int, limit: Int, _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
    guard count > 0 else { return [] }
    return try await withThrowingTaskGroup(of: (Int, Result<T, any Error>).self) { group in
        var values = [T?](repeating: nil, count: count)
        var firstError: (index: Int, error: any Error)?
        var next = 0
        func start() {
            let index = next
            next += 1
            group.addTask { (index, await Result { try await body(index) }) }
        }
        for _ in 0..<min(max(1, limit), count) { start() }
        while let (index, outcome) = try await group.next() {
            switch outcome {
            case .success(let value): values[index] = value
            case .failure(let error):
                if firstError.map({ index < $0.index }) ?? true { firstError = (index, error) }
            }
            // Like parallelMap, no new call after a failure: the started ones finish.
            if next < count, firstError == nil { start() }
        }
        if let firstError { throw firstError.error }
        return values.map { $0! }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
