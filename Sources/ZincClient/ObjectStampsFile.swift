import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The object stamps looked up in their file (`ObjectStamps`' format) instead of loaded:
/// what a check that looks up a few objects holds (an update from a spare folder, which
/// checks the objects of the files it changes), or every file of a folder a batch at a
/// time (`status`), where the file loaded whole took 5.4 MB at 100,000 objects and 53.6
/// MB at 1,000,000.
///
/// The file is read once, 64 KiB at a time, with every check a load makes (magic, whole
/// records in digest order, sizes), keeping the digest of every 64th record (31 KB at
/// 100,000 objects): a lookup then reads the one stretch of 64 records that may hold its
/// digest (3.3 KB, one `pread`), a batch of lookups in digest order reads forward 64 KiB
/// at a time (`forEachStamp`), and the records are given in order by reading the file
/// again (`entries`). The file is kept open: the stamps saved meanwhile replace it by a
/// rename, never in place. A file that fails a check is taken for an empty one, as a load
/// takes it.
struct ObjectStampsFile: Sendable {
    static let stretch = 64

    private let file: PosixFile?
    /// The first digest of each stretch of `stretch` records, in order.
    private let marks: [SHA1.Digest]
    let count: Int

    /// The repo's `stamps`, nil when it has none (an earlier client's `stamps.json` may
    /// stand for it: `ObjectStamps.load` converts it) or it cannot be read.
    init?(in repo: Repo) {
        guard let file = try? PosixFile.open(repo.root + "/" + ObjectStamps.fileName),
            let reader = try? ObjectStamps.Reader.read(file, keepingEvery: Self.stretch)
        else { return nil }
        (self.file, marks, count) = reader.isSound ? (file, reader.stamps.records.map(\.digest), reader.count) : (nil, [], 0)
    }

    /// The stamp of `digest`: one stretch read (3.3 KB).
    subscript(_ digest: SHA1.Digest) -> ObjectStamp? {
        var found: ObjectStamp?
        forEachStamp(of: CollectionOfOne(digest), reading: Self.stretch) { found = $0 }
        return found
    }

    /// The stamp of each of `digests` (in ascending order), given to `body` in that order:
    /// the stretches that may hold them are read forward, `piece` records at a time (at
    /// least a stretch; 64 KiB by default), so a batch of digests spread over the whole
    /// file reads it once, in order, and a few digests cost a read each. What a check of a
    /// whole folder looks its files' objects up by (`FileJudgement`), where a `pread` a
    /// lookup read 3.3 KB a file.
    func forEachStamp(
        of digests: some Sequence<SHA1.Digest>, reading piece: Int = (1 << 16) / ObjectStamps.recordSize,
        _ body: (ObjectStamp?) throws -> Void
    ) rethrows {
        let size = ObjectStamps.recordSize
        // The records read, from the `first`th: a whole number of stretches.
        var window = [UInt8]()
        var (first, held) = (0, 0)
        var mark = 0
        var key = [UInt8]()
        for digest in digests {
            // The last stretch whose first digest is at most this one: ascending digests move forward only.
            while mark + 1 < marks.count, marks[mark + 1] <= digest { mark += 1 }
            guard mark < marks.count, marks[mark] <= digest else {
                try body(nil)
                continue
            }
            let start = mark * Self.stretch
            let end = min(start + Self.stretch, count)
            if start < first || end > first + held {
                (first, held) = (start, min(max(piece, Self.stretch), count - start))
                window = bytes(from: first, count: held)
                if window.isEmpty { held = 0 }
            }
            guard held > 0 else {
                try body(nil)
                continue
            }
            key.removeAll(keepingCapacity: true)
            digest.appendBytes(to: &key)
            // Halving the stretch's records, their digests' bytes compared where they lie.
            let found = window.withUnsafeBufferPointer { records in
                key.withUnsafeBufferPointer { key -> ObjectStamp? in
                    let order = { (i: Int) in memcmp(records.baseAddress! + i * size, key.baseAddress!, 20) }
                    var (low, high) = (start - first, end - first)
                    while low < high {
                        let middle = (low + high) / 2
                        if order(middle) < 0 { low = middle + 1 } else { high = middle }
                    }
                    guard low < end - first, order(low) == 0 else { return nil }
                    return ObjectStamps.Record(UnsafeBufferPointer(rebasing: records[low * size..<(low + 1) * size]))?.stamp
                }
            }
            try body(found)
        }
    }

    /// Every stamp, in digest order, read 1,260 records (64 KiB) at a time.
    var entries: some Sequence<(SHA1.Digest, ObjectStamp)> {
        let piece = (1 << 16) / ObjectStamps.recordSize
        return stride(from: 0, to: count, by: piece).lazy.flatMap { records(from: $0, count: min(piece, count - $0)) }
            .map { ($0.digest, $0.stamp) }
    }

    /// The `count` records from the `first`th; none when the file no longer reads back as
    /// it did (a shortcut lost, nothing worse).
    private func records(from first: Int, count: Int) -> [ObjectStamps.Record] {
        let size = ObjectStamps.recordSize
        let bytes = bytes(from: first, count: count)
        return (0..<bytes.count / size).compactMap { ObjectStamps.Record(bytes[$0 * size..<($0 + 1) * size]) }
    }

    /// The bytes of the `count` records from the `first`th; none when the file no longer
    /// reads back as it did.
    private func bytes(from first: Int, count: Int) -> [UInt8] {
        guard let file, count > 0 else { return [] }
        let size = ObjectStamps.recordSize
        var bytes = [UInt8](repeating: 0, count: count * size)
        let offset = Int64(ObjectStamps.magic.count + first * size)
        guard (try? bytes.withUnsafeMutableBytes { try file.readFully(into: $0, at: offset) }) == bytes.count else { return [] }
        return bytes
    }
}
