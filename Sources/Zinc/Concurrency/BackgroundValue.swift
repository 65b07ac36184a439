import Dispatch
import Synchronization

/// A value computed on a thread of its own while the caller goes on (a file parsed while
/// the first request of a sync is in flight); reading `value` waits for it.
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
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}
