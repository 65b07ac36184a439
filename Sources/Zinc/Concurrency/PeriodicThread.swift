import Dispatch

/// Runs `work` on a thread of its own every `interval` seconds (the first time one
/// interval after the start) until `stop()`, which returns once the thread has finished
/// its last run: background flushes while an import writes, lock refreshes while a lock
/// is held. `stop()` is called once.
package final class PeriodicThread: Sendable {
    /// Signalled by `stop()`; the thread waits on it with the interval as timeout.
    private let stopping = DispatchSemaphore(value: 0)
    /// Signalled by the thread after its last run.
    private let finished = DispatchSemaphore(value: 0)

    package init(every interval: Double, _ work: @escaping @Sendable () -> Void) {
        WorkerThread.start { [stopping, finished] in
            // The monotonic clock: a change of the wall clock neither hurries nor delays a run.
            while stopping.wait(timeout: .now() + interval) == .timedOut {
                work()
            }
            finished.signal()
        }
    }

    package func stop() {
        stopping.signal()
        finished.wait()
    }
}
