import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `ManifestTable`'s fields in order, by pieces of at most 64 KiB at offsets (a
/// file by `pread`, or bytes in memory for tests and fuzzing), hashing every byte once as
/// it is read: a section too large for a piece (the path bytes) goes straight into the
/// buffer that keeps it, so no copy of the table is ever held beside the table read.
/// Nothing at or past `end` (where the checksum starts) is read as a field, and every
/// field that would pass it answers nil: no count read is trusted.
struct ManifestTableReader {
    /// Reads bytes at an offset until the buffer is full or the bytes end; returns how
    /// many it read.
    typealias Source = (UnsafeMutableRawBufferPointer, Int) throws -> Int

    static let pieceSize = 1 << 16

    private let source: Source
    /// Where the checksum starts.
    let end: Int
    private var window = [UInt8](repeating: 0, count: pieceSize)
    /// The bytes of `window` read but not yet taken.
    private var low = 0
    private var high = 0
    /// The offset of the first byte not yet read into `window`.
    private var loaded = 0
    private var hasher = XXH64()

    /// A reader of a table of `size` bytes, nil when it is too short for a checksum.
    init?(size: Int, source: @escaping Source) {
        guard size >= 8 else { return nil }
        self.source = source
        end = size - 8
    }

    /// A reader of a table in memory.
    init?(bytes: [UInt8]) {
        self.init(size: bytes.count) { buffer, offset in
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            return count
        }
    }

    /// The bytes not yet taken before the checksum.
    var remaining: Int { end - loaded + (high - low) }

    /// Whether every byte before the checksum was taken, and the checksum is their XXH64.
    mutating func finish() throws -> Bool {
        guard remaining == 0 else { return false }
        var stored: UInt64 = 0
        let count = try withUnsafeMutableBytes(of: &stored) { try source($0, end) }
        return count == 8 && UInt64(littleEndian: stored) == hasher.digest()
    }

    /// Makes the next `count` bytes (at most a piece) readable in `window`.
    private mutating func fill(_ count: Int) throws -> Bool {
        guard count <= Self.pieceSize, count <= remaining else { return false }
        guard high - low < count else { return true }
        let (kept, wanted) = (high - low, min(Self.pieceSize - (high - low), end - loaded))
        let read = try window.withUnsafeMutableBytes { all in
            if kept > 0, low > 0, let base = all.baseAddress { memmove(base, base + low, kept) }
            let fresh = UnsafeMutableRawBufferPointer(rebasing: all[kept..<(kept + wanted)])
            let read = try source(fresh, loaded)
            hasher.update(UnsafeRawBufferPointer(rebasing: fresh[..<read]))
            return read
        }
        (low, high, loaded) = (0, kept + read, loaded + read)
        return high >= count
    }

    /// The next `count` bytes (at most a piece), given to `body` and stepped over.
    mutating func take<T>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> T?) throws -> T? {
        guard try fill(count) else { return nil }
        defer { low += count }
        return window.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[low..<(low + count)])) }
    }

    /// Fills `buffer` with the next bytes: those in the window first, then the rest read
    /// straight into it.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard buffer.count <= remaining else { return false }
        let buffered = min(buffer.count, high - low)
        window.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[low..<(low + buffered)])) }
        low += buffered
        let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[buffered...])
        guard !rest.isEmpty else { return true }
        let read = try source(rest, loaded)
        guard read == rest.count else { return false }
        hasher.update(UnsafeRawBufferPointer(rest))
        loaded += read
        return true
    }

    /// Steps over the next `count` bytes, hashing them, keeping none.
    mutating func skip(_ count: Int) throws -> Bool {
        guard count >= 0, count <= remaining else { return false }
        var left = count
        while left > 0 {
            let piece = min(left, Self.pieceSize)
            guard try take(piece, { _ in () }) != nil else { return false }
            left -= piece
        }
        return true
    }

    mutating func int<T: FixedWidthInteger>(_: T.Type) throws -> T? {
        try take(MemoryLayout<T>.size) { T(littleEndian: $0.loadUnaligned(as: T.self)) }
    }

    mutating func count() throws -> Int? { try int(UInt32.self).map(Int.init) }

    /// A string: its 4-byte length, then as many bytes of UTF-8.
    mutating func string() throws -> String? {
        guard let length = try count() else { return nil }
        return try take(length) { ManifestTable.validString($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// `count` strings (a count read first without it): never more than the bytes left
    /// could hold, each taking at least its length's 4 bytes.
    mutating func strings(count: Int? = nil) throws -> [String]? {
        guard let count = try count ?? self.count(), count <= remaining / 4 else { return nil }
        var strings = [String]()
        strings.reserveCapacity(count)
        for _ in 0..<count {
            guard let string = try string() else { return nil }
            strings.append(string)
        }
        return strings
    }
}
