import Dispatch
import Synchronization

/// A file's SHA-1 (an object's name) and its chunks, in one read of it. The calling
/// thread reads the file and hashes each read; a lane of its own chunks the same reads
/// a little behind, on the other core. The lanes meet only at a ring of a few read
/// buffers: the SHA-1 is the slower of the two, so it never waits unless the chunking
/// falls `slots` reads behind, and the chunking waits only for reads not yet made.
/// Hashing both in lockstep, each read waiting for both lanes before the next, left a
/// core idle for part of every read: a 1 GiB file took 0.74–0.93 s to hash and chunk
/// that way, where its SHA-1 alone takes 0.65–0.69 s, and the ring 0.67–0.69 s.
package enum ChunkingDigest {
    /// Bytes a read fills: small enough that a read's bytes are still in the reading
    /// core's cache when it hashes them, as a plain hash's reads are.
    static let readSize = 1 << 20
    /// Reads the chunking lane may fall behind the hashing before the hashing waits.
    static let slots = 4

    package static func digest(file: PosixFile) throws -> (digest: SHA1.Digest, chunks: [ContentChunk]) {
        let whole = SHA1()
        let ring = ReadRing(slots: slots, readSize: readSize)
        let reader = SparseReader(file)
        var slot = 0
        while true {
            let buffer = ring.claim(slot)
            let count: Int
            do {
                count = try reader.readFully(into: buffer)
            } catch {
                ring.publish(slot, count: 0)
                _ = ring.chunks()
                throw error
            }
            whole.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            ring.publish(slot, count: count)
            if count < readSize { break }
            slot = (slot + 1) % slots
        }
        return (whole.digest(), ring.chunks())
    }
}

/// The read buffers the hashing fills and the chunking lane splits, in turn, and that
/// lane. A buffer is claimed by the hashing, filled and hashed, then published with how
/// many bytes it holds; the lane splits it and frees it. A buffer holding less than a
/// full read is the last: the lane ends after it.
private final class ReadRing: Sendable {
    /// By address: a raw pointer is not `Sendable`. Each buffer is written only by the
    /// hashing, between its `claim` and `publish`, and read only by the lane, between
    /// that `publish` and its freeing: the semaphores order the two.
    private let memory: UInt
    private let readSize: Int
    private let slots: Int
    private let counts: Mutex<[Int]>
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Used by the lane alone, until `finished`; then by `chunks()`.
    private let splitter = Mutex(ChunkSplitter())

    init(slots: Int, readSize: Int) {
        self.slots = slots
        self.readSize = readSize
        memory = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: slots * readSize, alignment: 64))
        counts = Mutex([Int](repeating: 0, count: slots))
        free = DispatchSemaphore(value: slots)
        WorkerThread.start { [self] in split() }
    }

    deinit {
        UnsafeMutableRawPointer(bitPattern: memory)!.deallocate()
    }

    /// The buffer of `slot`, once the lane is done with what it held.
    func claim(_ slot: Int) -> UnsafeMutableRawBufferPointer {
        free.wait()
        return buffer(slot)
    }

    /// Hands the lane the first `count` bytes of `slot`'s buffer.
    func publish(_ slot: Int, count: Int) {
        counts.withLock { $0[slot] = count }
        filled.signal()
    }

    /// The chunks of all that was published, once the lane has split it.
    func chunks() -> [ContentChunk] {
        finished.wait()
        return splitter.withLock { $0.finish() }
    }

    private func buffer(_ slot: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: memory)! + slot * readSize, count: readSize)
    }

    private func split() {
        var slot = 0
        while true {
            filled.wait()
            let count = counts.withLock { $0[slot] }
            splitter.withLock { $0.update(UnsafeRawBufferPointer(rebasing: buffer(slot)[..<count])) }
            free.signal()
            if count < readSize { break }
            slot = (slot + 1) % slots
        }
        finished.signal()
    }
}
