import Dispatch
import Synchronization

/// A value computed on a thread of its own while the caller goes on (a file parsed, or
/// with `Void` a folder removed, while the first request of a sync is in flight);
/// reading `value`, or `wait()`, waits for it.
package final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    /// Signalled once the value is in, then after each wait, so every later read returns at once.
    private let done = DispatchSemaphore(value: 0)

    package init(_ compute: @escaping @Sendable () -> Value) {
        WorkerThread.start { [self] in
            let value = compute()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    package var value: Value {
        wait()
        return result.withLock { $0! }
    }

    /// Returns once the value is in.
    package func wait() {
        done.wait()
        done.signal()
    }
}
