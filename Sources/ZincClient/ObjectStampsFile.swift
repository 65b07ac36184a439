import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The object stamps looked up in their file (`ObjectStamps`' format) instead of loaded:
/// what a check that looks up a few objects holds (an update from a spare folder, which
/// checks the objects of the files it changes), where the file loaded whole took 5.4 MB
/// at 100,000 objects.
///
/// The file is read once, 64 KiB at a time, with every check a load makes (magic, whole
/// records in digest order, sizes), keeping the digest of every 64th record (31 KB at
/// 100,000 objects): a lookup then reads the one stretch of 64 records that may hold its
/// digest (3.3 KB, one `pread`), and the records are given in order by reading the file
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

    subscript(_ digest: SHA1.Digest) -> ObjectStamp? {
        let after = marks.partitionPoint { $0 <= digest }
        guard after > 0 else { return nil }
        let first = (after - 1) * Self.stretch
        return records(from: first, count: min(Self.stretch, count - first)).first { $0.digest == digest }?.stamp
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
        guard let file, count > 0 else { return [] }
        let size = ObjectStamps.recordSize
        var bytes = [UInt8](repeating: 0, count: count * size)
        let offset = Int64(ObjectStamps.magic.count + first * size)
        guard (try? bytes.withUnsafeMutableBytes { try file.readFully(into: $0, at: offset) }) == bytes.count else { return [] }
        return (0..<count).compactMap { ObjectStamps.Record(bytes[$0 * size..<($0 + 1) * size]) }
    }
}
