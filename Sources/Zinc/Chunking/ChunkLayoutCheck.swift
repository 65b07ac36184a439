/// Checks, as an object's stored bytes stream past, that a chunk list's ranges of it
/// are what the list says: each chunk's stored bytes (inflated in order, for gz) are
/// `length` bytes with the listed hash, and the chunks make the whole content. What
/// `verify` does for each chunk list entry.
final class ChunkLayoutCheck {
    let layout: ObjectChunks
    private let ranges: [Range<Int64>]
    private var next = 0
    /// Where the streamed bytes are in the stored object.
    private var position: Int64 = 0
    /// The current chunk's stored bytes gathered so far.
    private var pending = [UInt8]()
    private let inflater: ChunkInflater?
    private let content = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentChunker.maximumSize, alignment: 16)
    /// The first thing found wrong.
    private(set) var problem: String?

    init(_ layout: ObjectChunks) {
        self.layout = layout
        ranges = layout.storedRanges()
        inflater = layout.format == .gz ? ChunkInflater(history: layout.history) : nil
    }

    deinit { content.deallocate() }

    func update(_ stored: UnsafeRawBufferPointer) {
        var at = 0
        while problem == nil, next < ranges.count, at < stored.count {
            let range = ranges[next]
            let here = position + Int64(at)
            if here < range.lowerBound {
                at += Int(min(range.lowerBound - here, Int64(stored.count - at)))
                continue
            }
            let wanted = Int(range.upperBound - here)
            let taken = min(wanted, stored.count - at)
            pending.append(contentsOf: stored[at..<(at + taken)])
            at += taken
            if taken == wanted { checkChunk() }
        }
        position += Int64(stored.count)
    }

    /// The problem found, or one of the stored object ending before its last chunk, or
    /// of a content of `contentSize` bytes the chunks do not make up exactly.
    func finish(contentSize: Int64) -> String? {
        if problem == nil, next < ranges.count { problem = "chunk \(next) lies past the end of the object" }
        if problem == nil, layout.contentSize != contentSize {
            problem = "its chunks make \(layout.contentSize) bytes of content, the object has \(contentSize)"
        }
        return problem
    }

    private func checkChunk() {
        let chunk = layout.chunks[next]
        let bytes = UnsafeMutableRawBufferPointer(rebasing: content[..<chunk.length])
        defer {
            pending.removeAll(keepingCapacity: true)
            next += 1
        }
        do {
            try pending.withUnsafeBytes { try chunk.decode($0, into: bytes, inflater: inflater) }
        } catch {
            problem = "chunk \(next) \(error)"
        }
    }
}
