import Zinc

extension VersionObjects {
    /// The distinct objects of the files `forEach` gives (every file's object, in the
    /// same order at each of its two calls: a version's table read as a stream), with
    /// nothing held beside them but a bit an object: the digests gathered 20 bytes each
    /// and sorted in place, then the files given again for each object's sizes (kept with
    /// `withSizes`) and the archive's length, an object counted once, with the sizes of
    /// its first file, as `init(sorted:withSizes:)` counts it. `files`: at least as many
    /// as are given, room for them made at once, so the digests are never copied as
    /// they grow.
    init(streaming forEach: ((StoredObject) -> Void) throws -> Void, files: Int, withSizes: Bool) throws {
        var packed = [UInt8]()
        packed.reserveCapacity(files * 20)
        try forEach { $0.digest.appendBytes(to: &packed) }
        let count = packed.withUnsafeMutableBytes { bytes in
            bytes.withMemoryRebound(to: PackedDigest.self) { digests in
                PackedDigest.sort(digests)
                // Each kept once, in place.
                var kept = 0
                for digest in digests where kept == 0 || digests[kept - 1] != digest {
                    digests[kept] = digest
                    kept += 1
                }
                return kept
            }
        }
        packed.removeLast(packed.count - count * 20)
        var counted = [UInt64](repeating: 0, count: (count + 63) / 64)
        var sizes = withSizes ? [StoredObject.Sizes](repeating: .none, count: count) : nil
        var length = Int64(2 * TarHeader.blockSize)
        var scratch = [UInt8]()
        scratch.reserveCapacity(20)
        try packed.withUnsafeBytes { bytes in
            try bytes.withMemoryRebound(to: PackedDigest.self) { digests in
                try forEach { object in
                    scratch.removeAll(keepingCapacity: true)
                    object.digest.appendBytes(to: &scratch)
                    let digest = scratch.withUnsafeBytes { $0.loadUnaligned(as: PackedDigest.self) }
                    let i = digests.partitionPoint { $0 < digest }
                    guard i < count, counted[i / 64] & (1 << (i % 64)) == 0 else { return }
                    counted[i / 64] |= 1 << (i % 64)
                    sizes?[i] = object.sizes
                    length += TarHeader.memberLength(size: object.preferredSize)
                }
            }
        }
        self.init(packed: packed, sizes: sizes, archiveLength: length)
    }
}

/// A digest's 20 bytes as they lie in a packed buffer (alignment 4, so a stride of 20),
/// ordered as the bytes are.
private struct PackedDigest: Comparable {
    var words: (UInt32, UInt32, UInt32, UInt32, UInt32)

    static func < (a: PackedDigest, b: PackedDigest) -> Bool {
        // Big-endian values compare as the bytes do.
        let (x, y) = (a.words, b.words)
        if x.0 != y.0 { return UInt32(bigEndian: x.0) < UInt32(bigEndian: y.0) }
        if x.1 != y.1 { return UInt32(bigEndian: x.1) < UInt32(bigEndian: y.1) }
        if x.2 != y.2 { return UInt32(bigEndian: x.2) < UInt32(bigEndian: y.2) }
        if x.3 != y.3 { return UInt32(bigEndian: x.3) < UInt32(bigEndian: y.3) }
        return UInt32(bigEndian: x.4) < UInt32(bigEndian: y.4)
    }

    /// The digest's first byte.
    private var first: Int { Int(UInt32(bigEndian: words.0) >> 24) }

    /// Sorts `digests` in place: by their first byte (one pass to count, one to move each
    /// to its bucket), then each bucket alone, so that the sort's scratch (half a bucket)
    /// is a 256th of that of one sort of them all (10 MB at 1,000,000 objects).
    static func sort(_ digests: UnsafeMutableBufferPointer<PackedDigest>) {
        var ends = [Int](repeating: 0, count: 256)
        for digest in digests { ends[digest.first] += 1 }
        for b in 1..<256 { ends[b] += ends[b - 1] }
        // Where each bucket's next digest goes, from its start.
        var next = [0] + ends.dropLast()
        for b in 0..<256 {
            while next[b] < ends[b] {
                let other = digests[next[b]].first
                if other == b {
                    next[b] += 1
                } else {
                    digests.swapAt(next[b], next[other])
                    next[other] += 1
                }
            }
        }
        var start = 0
        for end in ends {
            var bucket = UnsafeMutableBufferPointer(rebasing: digests[start..<end])
            bucket.sort()
            start = end
        }
    }

    static func == (a: PackedDigest, b: PackedDigest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
            && a.words.4 == b.words.4
    }
}
