#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts threads of Zinc's own: parallel lanes and periodic background work. A plain
/// detached pthread, with the platform's default attributes (as Foundation's `Thread`
/// had), so that `zinc` does not link Foundation's `Thread` and with it ICU's data.
package enum WorkerThread {
    /// Runs `body` on a new thread, which ends when `body` returns. Nobody joins it:
    /// callers that wait for it signal their own completion.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let result = spawn(Unmanaged.passRetained(Body(body)).toOpaque())
        precondition(result == 0, "cannot start a thread (error \(result))")
    }

    private static func spawn(_ context: UnsafeMutableRawPointer) -> Int32 {
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?  // a pointer on Darwin and musl
        #endif
        return pthread_create(&thread, nil, workerThreadEntry, context)
    }

    fileprivate final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// The thread's entry point: runs and releases the body `start` retained. Its parameter
/// is optional on Linux and not on Darwin.
#if canImport(Darwin)
private func workerThreadEntry(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    runWorkerThread(context)
}
#else
private func workerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    runWorkerThread(context!)
}
#endif

private func runWorkerThread(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    pthread_detach(pthread_self())
    Unmanaged<WorkerThread.Body>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
