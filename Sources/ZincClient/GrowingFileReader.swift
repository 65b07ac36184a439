import Synchronization
import Zinc

/// A file another thread is appending to (an archive range being downloaded), read as it
/// grows: at the end of what has arrived a read waits for more, and returns 0 only once
/// the writer has said it is done (`Arrival.end`). So the archive's members are verified
/// while the rest of the range is on its way, rather than all after its last byte.
final class GrowingFileReader: StorageReader {
    /// Set by the writer once nothing more will be appended, whether it finished or failed.
    final class Arrival: Sendable {
        private let ended = Atomic(false)

        var hasEnded: Bool { ended.load(ordering: .acquiring) }

        func end() { ended.store(true, ordering: .releasing) }
    }

    private let file: PosixFile
    private let arrival: Arrival

    /// How long a read at the end waits before it looks again: at 100 Mbit/s a 16 KB
    /// chunk arrives every 1.3 ms.
    static let pause = Duration.milliseconds(1)

    init(_ file: PosixFile, arrival: Arrival) {
        self.file = file
        self.arrival = arrival
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            // Looked at before reading: the bytes appended before the end are in this read.
            let ended = arrival.hasEnded
            let count = try file.read(into: buffer)
            if count > 0 || ended { return count }
            sleepThread(for: Self.pause)
        }
    }
}
