import Synchronization

/// Aligned buffers of one size, lent to threads and taken back. Blocks filled over and
/// over reuse the same memory: a fresh buffer of this size comes from `mmap`, and
/// touching each new page again costs a fault. The buffers are freed with the pool.
final class AlignedBuffers: Sendable {
    private let size: Int
    private let alignment: Int
    /// Idle buffers, by address (a raw pointer is not `Sendable`).
    private let idle = Mutex<[UInt]>([])

    init(size: Int, alignment: Int) {
        self.size = size
        self.alignment = alignment
    }

    deinit {
        for address in idle.withLock({ $0 }) {
            UnsafeMutableRawPointer(bitPattern: address)!.deallocate()
        }
    }

    /// Runs `body` with a buffer of `size` bytes, whose contents are whatever the last
    /// user left in it.
    func withBuffer<T>(_ body: (UnsafeMutableRawBufferPointer) throws -> T) rethrows -> T {
        let address = idle.withLock { $0.popLast() }
        let start =
            address.flatMap(UnsafeMutableRawPointer.init(bitPattern:))
            ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
        defer { idle.withLock { $0.append(UInt(bitPattern: start)) } }
        return try body(UnsafeMutableRawBufferPointer(start: start, count: size))
    }
}
