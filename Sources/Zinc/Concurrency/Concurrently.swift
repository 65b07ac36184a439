import Dispatch
import Synchronization

/// Runs two jobs at once: `first` on a thread of its own, `second` on the calling thread,
/// and returns both results once both are done. Each job runs to its end whatever the
/// other does; then the first job's error, if any, is thrown, else the second's. Only
/// `first` crosses threads, so only it (and its result) must be `Sendable`: `second`
/// may use the caller's state as any code on its thread does.
package func concurrently<A: Sendable, B>(_ first: @escaping @Sendable () throws -> A, _ second: () throws -> B) throws -> (A, B) {
    let outcome = Mutex<Result<A, any Error>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    WorkerThread.start {
        let result = Result { try first() }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    let secondResult = Result { try second() }
    finished.wait()
    let firstResult = outcome.withLock { $0 }!
    return (try firstResult.get(), try secondResult.get())
}
