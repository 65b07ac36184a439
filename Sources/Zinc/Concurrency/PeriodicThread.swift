import Foundation

/// Runs `work` on a thread of its own every `interval` (the first time one interval
/// after the start) until `stop()`, which returns once the thread has finished its
/// last run: background flushes while an import writes, lock refreshes while a lock is
/// held.
package final class PeriodicThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false

    package init(every interval: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            condition.lock()
            while !stopping {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
                if stopping { break }
                condition.unlock()
                work()
                condition.lock()
            }
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    package func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
