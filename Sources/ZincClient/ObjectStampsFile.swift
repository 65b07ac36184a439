import Zinc

/// The object stamps looked up in their file (`ObjectStamps`' format), never loaded: what
/// every check goes by, whether it looks up a few objects (an update from a spare folder,
/// which checks the objects of the files it changes), every object of a version in digest
/// order (a first update, a rebuild) or every file of a folder a batch at a time
/// (`status`), where the file loaded whole took 5.4 MB at 100,000 objects and 53.6 MB at
/// 1,000,000.
///
/// The file is read once, 64 KiB at a time, with every check a load makes (magic, whole
/// records in digest order, sizes), keeping the digest of every 64th record (31 KB at
/// 100,000 objects): a lookup then reads the one stretch of 64 records that may hold its
/// digest (3.3 KB, one `pread`), lookups in digest order read forward up to 64 KiB at a
/// time (`Cursor`), and the records are given in order by reading the file again
/// (`entries`). The file is kept open: the stamps saved meanwhile replace it by a rename,
/// never in place. A file that fails a check is taken for an empty one, as a load takes
/// it.
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
        var cursor = Cursor()
        return stamp(of: digest, cursor: &cursor)
    }

    /// The stamp of each of `digests` (in ascending order), given to `body` in that order:
    /// the stretches that may hold them are read forward, so a batch of digests spread over
    /// the whole file (a check of a whole folder, `FileJudgement`) reads it once, in order,
    /// 64 KiB at a time, and a few digests cost a stretch each.
    func forEachStamp(of digests: some Sequence<SHA1.Digest>, _ body: (ObjectStamp?) throws -> Void) rethrows {
        var cursor = Cursor()
        for digest in digests { try body(stamp(of: digest, cursor: &cursor)) }
    }

    /// Where a run of lookups stands: the records read last, kept for the lookups that
    /// fall among them, and how far the next read reaches. Lookups that keep going on past
    /// what was read (a version's objects judged in digest order) read twice as far each
    /// time, up to 64 KiB, as the kernel reads ahead; a lookup elsewhere reads its own
    /// stretch. So a check of every object reads the file once, 64 KiB at a time, where a
    /// load held 5.4 MB at 100,000 objects (53.6 MB at 1,000,000), and a check of a few
    /// reads a stretch for each.
    struct Cursor {
        /// The bytes of the `held` records from the `first`th.
        fileprivate var window = [UInt8]()
        fileprivate var first = 0
        fileprivate var held = 0
        fileprivate var reach = ObjectStampsFile.stretch

        init() {}
    }

    /// The most records a read takes: whole stretches, within 64 KiB.
    private static let longestRead = (1 << 16) / ObjectStamps.recordSize / stretch * stretch

    /// The stamp of `digest`, read from where `cursor` stands: the records it holds, or the
    /// stretch that may hold `digest` and, when that stretch follows them, the ones after.
    func stamp(of digest: SHA1.Digest, cursor: inout Cursor) -> ObjectStamp? {
        // The last stretch whose first digest is at most this one.
        let mark = marks.partitionPoint { $0 <= digest } - 1
        guard mark >= 0 else { return nil }
        let start = mark * Self.stretch
        let end = min(start + Self.stretch, count)
        if start < cursor.first || end > cursor.first + cursor.held {
            let onward = cursor.held > 0 && start == cursor.first + cursor.held
            cursor.reach = onward ? min(cursor.reach * 2, Self.longestRead) : Self.stretch
            cursor.first = start
            cursor.held = min(cursor.reach, count - start)
            cursor.window = bytes(from: start, count: cursor.held)
            if cursor.window.isEmpty { cursor.held = 0 }
        }
        guard cursor.held > 0 else { return nil }
        let size = ObjectStamps.recordSize
        // Halving the stretch's records, each digest read where it lies.
        return cursor.window.withUnsafeBufferPointer { records -> ObjectStamp? in
            let digestAt = { (i: Int) in SHA1.Digest(bytes: UnsafeBufferPointer(rebasing: records[i * size..<i * size + 20])) }
            var (low, high) = (start - cursor.first, end - cursor.first)
            while low < high {
                let middle = (low + high) / 2
                if digestAt(middle) < digest { low = middle + 1 } else { high = middle }
            }
            guard low < end - cursor.first, digestAt(low) == digest else { return nil }
            return ObjectStamps.Record(UnsafeBufferPointer(rebasing: records[low * size..<(low + 1) * size]))?.stamp
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
