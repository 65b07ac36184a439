import Zinc

extension VersionObjects {
    /// The distinct objects of the files `forEach` gives (every file's object, in the
    /// same order at each of its calls: a version's table read as a stream), with nothing
    /// held beside them but a bit an object. Without `withSizes`, the digests gathered 20
    /// bytes each and sorted in place, then the files given again for the archive's
    /// length, an object counted once, with the sizes of its first file. With them, the objects gathered 32 bytes each
    /// and sorted in place, each kept once with the sizes of one of its files (a
    /// manifest gives an object the same sizes in each): one pass, and no second list of
    /// them, where digests and sizes gathered apart and put together held 76 bytes an
    /// object at once. `files`: at least as many as are given, room for them made at
    /// once, so the list is never copied as it grows.
    init(streaming forEach: ((StoredObject) -> Void) throws -> Void, files: Int, withSizes: Bool) throws {
        if withSizes {
            try self.init(streamingWithSizes: forEach, files: files)
            return
        }
        var packed = [UInt8]()
        packed.reserveCapacity(files * 20)
        try forEach { $0.digest.appendBytes(to: &packed) }
        let count = packed.withUnsafeMutableBytes { bytes in
            bytes.withMemoryRebound(to: PackedDigest.self) { digests in
                digests.sortByFirstByte(of: \.first, by: <)
                return digests.keepingEachOnce(by: ==)
            }
        }
        packed.removeLast(packed.count - count * 20)
        var counted = [UInt64](repeating: 0, count: (count + 63) / 64)
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
                    length += TarHeader.memberLength(size: object.preferredSize)
                }
            }
        }
        self.init(packed: packed, archiveLength: length)
    }

    private init(streamingWithSizes forEach: ((StoredObject) -> Void) throws -> Void, files: Int) throws {
        var objects = [StoredObject]()
        objects.reserveCapacity(files)
        try forEach { objects.append($0) }
        let count = objects.withUnsafeMutableBufferPointer { objects in
            objects.sortByFirstByte(of: \.digest.firstByte) { $0.digest < $1.digest }
            return objects.keepingEachOnce { $0.digest == $1.digest }
        }
        objects.removeLast(objects.count - count)
        let length = objects.reduce(Int64(2 * TarHeader.blockSize)) { $0 + TarHeader.memberLength(size: $1.preferredSize) }
        self.init(sized: objects, archiveLength: length)
    }
}

extension UnsafeMutableBufferPointer {
    /// Sorts the elements in place by `less`: by `first` (their first byte, which orders
    /// them as `less` does), one pass to count and one to move each to its bucket, then each
    /// bucket alone, so that the sort's scratch (half a bucket) is a 256th of that of
    /// one sort of them all (10 MB for 1,000,000 digests).
    fileprivate func sortByFirstByte(of first: (Element) -> Int, by less: (Element, Element) -> Bool) {
        var ends = [Int](repeating: 0, count: 256)
        for element in self { ends[first(element)] += 1 }
        for b in 1..<256 { ends[b] += ends[b - 1] }
        // Where each bucket's next element goes, from its start.
        var next = [0] + ends.dropLast()
        for b in 0..<256 {
            while next[b] < ends[b] {
                let other = first(self[next[b]])
                if other == b {
                    next[b] += 1
                } else {
                    swapAt(next[b], next[other])
                    next[other] += 1
                }
            }
        }
        var start = 0
        for end in ends {
            var bucket = UnsafeMutableBufferPointer(rebasing: self[start..<end])
            bucket.sort(by: less)
            start = end
        }
    }

    /// Keeps each element of these sorted ones once (the first of those `same` takes for
    /// one), at the front, in place; returns how many are kept.
    fileprivate func keepingEachOnce(by same: (Element, Element) -> Bool) -> Int {
        var kept = 0
        for i in indices where kept == 0 || !same(self[kept - 1], self[i]) {
            self[kept] = self[i]
            kept += 1
        }
        return kept
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
    var first: Int { Int(UInt32(bigEndian: words.0) >> 24) }

    static func == (a: PackedDigest, b: PackedDigest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
            && a.words.4 == b.words.4
    }
}
