import Synchronization

/// What names a chunk's bytes: their XXH64 (see `XXH64` for why not a SHA-1), written
/// as 16 lowercase hex digits.
public struct ChunkHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// The hash of `bytes`.
    public init(of bytes: UnsafeRawBufferPointer) {
        value = XXH64.hash(bytes)
    }

    /// Nil unless `hex` is 16 lowercase hex digits.
    public init?(hex: String) {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
            let value = UInt64(hex, radix: 16)
        else { return nil }
        self.value = value
    }

    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public var description: String { hex }

    public static func < (a: ChunkHash, b: ChunkHash) -> Bool { a.value < b.value }
}

/// One content-defined chunk of a file: its length and hash, which together name it
/// wherever it occurs, in any file.
public struct ContentChunk: Equatable, Hashable, Sendable {
    public let length: Int
    public let hash: ChunkHash

    public init(length: Int, hash: ChunkHash) {
        self.length = length
        self.hash = hash
    }
}

/// Cuts a stream into its `ContentChunker` chunks and hashes each, as it streams past.
public struct ChunkSplitter: Sendable {
    private var chunker = ContentChunker()
    private var current = XXH64()
    private var currentLength = 0
    private var chunks = [ContentChunk]()

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        chunker.scan(bytes) { end in
            current.update(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            chunks.append(ContentChunk(length: currentLength + end - start, hash: ChunkHash(current.digest())))
            current = XXH64()
            currentLength = 0
            start = end
        }
        current.update(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        currentLength += bytes.count - start
    }

    /// The stream's chunks, the last one ending with it.
    public func finish() -> [ContentChunk] {
        currentLength > 0 ? chunks + [ContentChunk(length: currentLength, hash: ChunkHash(current.digest()))] : chunks
    }
}

/// A file's SHA-1 (an object's name) and its chunks, in one read of it. Both hashes
/// run side by side, one per core: chunking alone costs about what the SHA-1 does, and
/// an import of one huge file would otherwise take a third longer.
package enum ChunkingDigest {
    /// Bytes read at a time, each read hashed by both lanes before the next.
    static let readSize = 4 << 20

    package static func digest(file: PosixFile) throws -> (digest: SHA1.Digest, chunks: [ContentChunk]) {
        let whole = SHA1()
        let lane = ChunkingLane()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
        defer { buffer.deallocate() }
        let reader = SparseReader(file)
        // By address: a raw pointer is not `Sendable` (see `ChunkingLane.update`).
        let address = UInt(bitPattern: buffer.baseAddress)
        while true {
            let count = try reader.readFully(into: buffer)
            guard count > 0 else { break }
            _ = try concurrently(
                { lane.update(address, count: count) }, { whole.update(UnsafeRawBufferPointer(rebasing: buffer[..<count])) })
            if count < buffer.count { break }
        }
        return (whole.digest(), lane.finish())
    }
}

/// The chunking lane's splitter. Under a lock only to cross threads: `concurrently`
/// hands it to the lane's thread and waits for it, so no two threads use it at once.
private final class ChunkingLane: Sendable {
    private let splitter = Mutex(ChunkSplitter())

    /// Splits the `count` bytes at `address`, which the caller only reads meanwhile.
    func update(_ address: UInt, count: Int) {
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
        splitter.withLock { $0.update(bytes) }
    }

    func finish() -> [ContentChunk] {
        splitter.withLock { $0.finish() }
    }
}
