import Synchronization

/// Files and bytes written, counted from any thread: what an import reports it wrote.
final class WriteTally: Sendable {
    private let counts = Mutex((files: 0, bytes: Int64(0)))

    func add(bytes: Int64) {
        counts.withLock { $0 = ($0.files + 1, $0.bytes + bytes) }
    }

    var files: Int { counts.withLock { $0.files } }
    var bytes: Int64 { counts.withLock { $0.bytes } }
}
