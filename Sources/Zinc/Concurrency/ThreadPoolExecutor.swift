import Dispatch
import Synchronization

/// A task executor on threads of Zinc's own: the tasks that prefer it
/// (`withTaskExecutorPreference`, `Task(executorPreference:)`) run their jobs here, not
/// on the cooperative pool. Work that hashes gigabytes or waits on a disk then never
/// holds up an app's tasks, while an `await` on the network holds no thread at all.
/// The threads live as long as the process, idle on a semaphore when there is no job.
package final class ThreadPoolExecutor: TaskExecutor {
    private struct Queue {
        var jobs = [UnownedJob]()
        var head = 0
    }

    private let queue = Mutex(Queue())
    /// Counts the jobs queued and not yet taken.
    private let queued = DispatchSemaphore(value: 0)

    /// - Parameter threads: nil: one per available core, at least two.
    package init(threads: Int? = nil) {
        for _ in 0..<(threads ?? max(2, AvailableCores.count)) {
            WorkerThread.start { [self] in
                while true { run(next()) }
            }
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        queued.signal()
    }

    private func next() -> UnownedJob {
        queued.wait()
        return queue.withLock { queue in
            let job = queue.jobs[queue.head]
            queue.head += 1
            // Taken jobs are dropped in one go once they are half the array.
            if queue.head * 2 >= queue.jobs.count {
                queue.jobs.removeFirst(queue.head)
                queue.head = 0
            }
            return job
        }
    }

    private func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
