/// What names a chunk's bytes: their XXH64 (see `XXH64` for why not a SHA-1), written
/// as 16 lowercase hex digits.
package struct ChunkHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let value: UInt64

    package init(_ value: UInt64) {
        self.value = value
    }

    /// The hash of `bytes`.
    package init(of bytes: UnsafeRawBufferPointer) {
        value = XXH64.hash(bytes)
    }

    /// Nil unless `hex` is 16 lowercase hex digits.
    package init?(hex: String) {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
            let value = UInt64(hex, radix: 16)
        else { return nil }
        self.value = value
    }

    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    package var description: String { hex }

    package static func < (a: ChunkHash, b: ChunkHash) -> Bool { a.value < b.value }
}

/// One content-defined chunk of a file: its length and hash, which together name it
/// wherever it occurs, in any file.
package struct ContentChunk: Equatable, Hashable, Sendable {
    package let length: Int
    package let hash: ChunkHash

    package init(length: Int, hash: ChunkHash) {
        self.length = length
        self.hash = hash
    }
}

/// Cuts a stream into its `ContentChunker` chunks and hashes each, as it streams past.
package struct ChunkSplitter: Sendable {
    private var chunker: ContentChunker
    private var current = XXH64()
    private var currentLength = 0
    private var chunks = [ContentChunk]()

    package init(_ scheme: ChunkingScheme = .objects) {
        chunker = ContentChunker(scheme)
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
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
    package func finish() -> [ContentChunk] {
        currentLength > 0 ? chunks + [ContentChunk(length: currentLength, hash: ChunkHash(current.digest()))] : chunks
    }
}
