/// Where content-defined chunks of a stream end: FastCDC's gear hash with normalized
/// chunking. A boundary depends only on the bytes just before it, so an edit moves the
/// boundaries near it and no others: the chunks of an edited file are mostly the chunks
/// it had. The parameters are fixed, part of the catalog format (docs/FORMAT.md, "Chunk
/// lists"): every writer must cut the same bytes the same way, or clients holding one
/// writer's chunks could reuse nothing of another's.
///
/// A chunk's first `minimumSize` bytes are skipped. From there each byte updates a
/// 64-bit hash, `hash = (hash << 1) &+ gear[byte]` (wrapping), and the chunk ends after
/// the first byte where the hash's top 18 bits are all zero while the chunk is shorter
/// than `averageSize`, or its top 14 bits from then on, or at `maximumSize` bytes, or at
/// the end of the stream. The hash starts at zero in each chunk.
package struct ContentChunker: Sendable {
    /// The shortest chunk, but for the last of a stream.
    package static let minimumSize = 16 << 10
    /// Where the cut condition loosens (normalized chunking): chunk sizes gather around it.
    package static let averageSize = 64 << 10
    /// The longest chunk.
    package static let maximumSize = 256 << 10
    /// Objects of at least this many bytes are chunked. Smaller ones gain little: a whole
    /// 2 MiB file costs a player a fraction of a second on a phone link.
    package static let threshold: Int64 = 2 << 20
    /// The name chunk lists give these parameters (`chunking`).
    package static let scheme = ChunkingScheme.objects.name

    /// The sizes this chunker cuts to.
    package let parameters: ChunkingScheme
    /// How long the chunk being cut is so far.
    private var length = 0
    private var hash: UInt64 = 0

    package init(_ parameters: ChunkingScheme = .objects) {
        self.parameters = parameters
    }

    /// Feeds the next bytes of the stream; `cut` is told each offset in `bytes` where a
    /// chunk ends (the end of the stream is the caller's to add).
    package mutating func scan(_ bytes: UnsafeRawBufferPointer, cut: (Int) throws -> Void) rethrows {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let gear = Self.gear
        let (minimumSize, averageSize, maximumSize) = (parameters.minimumSize, parameters.averageSize, parameters.maximumSize)
        let (strictMask, looseMask) = (parameters.strictMask, parameters.looseMask)
        var i = 0
        while i < bytes.count {
            if length < minimumSize {
                let skipped = min(minimumSize - length, bytes.count - i)
                length += skipped
                i += skipped
                continue
            }
            // Hash up to where the condition changes (or the chunk must end).
            let limit = length < averageSize ? averageSize : maximumSize
            let mask = length < averageSize ? strictMask : looseMask
            let end = min(bytes.count, i + (limit - length))
            // Pointers and wrapping arithmetic: overflow checks would halve the speed.
            var h = hash
            var p = base + i
            let stop = base + end
            var found = false
            // Four bytes a round: the hash after the fourth follows from the one before the
            // first through one shift and add, the three between are computed beside it;
            // a round where one qualifies is left to the byte-by-byte loop below.
            while stop - p >= 4 {
                let g0 = gear[Int(p[0])]
                let g1 = gear[Int(p[1])]
                let g2 = gear[Int(p[2])]
                let g3 = gear[Int(p[3])]
                let s1 = (g0 << 1) &+ g1
                let s2 = (s1 << 1) &+ g2
                let s3 = (s2 << 1) &+ g3
                let h0 = (h << 1) &+ g0
                let h1 = (h << 2) &+ s1
                let h2 = (h << 3) &+ s2
                let h3 = (h << 4) &+ s3
                if h0 & mask == 0 || h1 & mask == 0 || h2 & mask == 0 || h3 & mask == 0 { break }
                h = h3
                p += 4
            }
            while p < stop {
                h = (h << 1) &+ gear[Int(p.pointee)]
                p += 1
                if h & mask == 0 {
                    found = true
                    break
                }
            }
            let j = p - base
            length += j - i
            i = j
            if found || length == maximumSize {
                try cut(i)
                length = 0
                hash = 0
            } else {
                hash = h
            }
        }
    }

    /// The 256 gear values: the first 256 outputs of SplitMix64 seeded with 0x7A696E63
    /// ("zinc" in ASCII), so any implementation can rebuild them.
    // Written once, before any reader, then only read.
    nonisolated(unsafe) static let gear: UnsafePointer<UInt64> = {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        var state: UInt64 = 0x7A69_6E63
        for i in 0..<256 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            table[i] = z ^ (z >> 31)
        }
        return UnsafePointer(table)
    }()
}
