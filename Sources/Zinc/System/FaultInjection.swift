import Foundation

/// Crash injection for the tests that prove a kill at any step leaves the catalog
/// valid: with `ZINC_KILL_AFTER_COMMITS=N` in the environment, the process kills itself
/// with SIGKILL right after its Nth change to a local catalog (a file renamed into
/// place, or deleted), as `kill -9` would. Unset, it costs one comparison per change.
enum FaultInjection {
    private static let limit: Int? = ProcessInfo.processInfo.environment["ZINC_KILL_AFTER_COMMITS"].flatMap { Int($0) }
    private static let counter = Counter()

    static func changed(_ path: String) {
        guard let limit, counter.increment() >= limit else { return }
        kill(getpid(), SIGKILL)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func increment() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
