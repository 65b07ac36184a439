import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file looked like when the repo last vouched for its bytes: size, modification
/// and status-change times (nanoseconds) and inode. Writing through a hard link to an
/// object (after a `chmod u+w`, the only way to edit a read-only file) changes both
/// times, and `touch` can set the first back but not the second, so a file whose stamp
/// still matches holds the bytes that were verified.
package struct ObjectStamp: Equatable, Sendable {
    package let size: Int64
    package let modified: Int64
    package let changed: Int64
    package let inode: UInt64

    package init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
    }

    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size), modified: info.modificationTime.nanoseconds,
            changed: info.statusChangeTime.nanoseconds, inode: UInt64(info.st_ino))
    }

    /// The stamp of the regular file at `path` (not followed if a symlink); nil when
    /// there is none.
    package static func of(_ path: String) -> ObjectStamp? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return ObjectStamp(info)
    }
}

/// The stamp of every object the repo vouched for (`stamps`). Linking and unlinking an
/// object's files changes its status-change time too, so a sync stamps the objects it
/// checked or fetched again after its own links and removals. Only a shortcut: an
/// object without a matching stamp is hashed, never trusted, so a missing, damaged or
/// foreign file costs hashing time and nothing else.
///
/// Held as one array sorted by digest, 56 bytes an object and no string (5.6 MB at
/// 100,000 objects), searched by halving. On disk, the 8 bytes `ZSTAMPS1`, then a
/// record per object in digest order: its 20-byte digest, then size, modified_ns,
/// changed_ns and inode, 8 bytes each, little-endian. A file torn, unsorted or of
/// another format is taken for an empty one.
///
/// Repos made by earlier clients have `stamps.json` instead, read once, when there is
/// no `stamps`, and replaced by it:
///
///     {"format":1,"objects":{"<sha>":[size, modified_ns, changed_ns, inode]}}
package struct ObjectStamps: Equatable, Sendable {
    static let fileName = "stamps"
    static let legacyFileName = "stamps.json"
    static let magic = Array("ZSTAMPS1".utf8)
    static let recordSize = 52

    struct Record: Equatable, Sendable {
        let digest: SHA1.Digest
        let stamp: ObjectStamp

        init(digest: SHA1.Digest, stamp: ObjectStamp) {
            self.digest = digest
            self.stamp = stamp
        }

        /// The record in `bytes` (`recordSize` of them), nil when its size is negative.
        init?(_ bytes: some Collection<UInt8>) {
            var fields = bytes.dropFirst(20).makeIterator()
            func field() -> UInt64 {
                (0..<8).reduce(UInt64(0)) { value, i in value | UInt64(fields.next() ?? 0) << (8 * i) }
            }
            let digest = SHA1.Digest(bytes: bytes.prefix(20))
            let size = Int64(bitPattern: field())
            guard size >= 0 else { return nil }
            self.init(
                digest: digest,
                stamp: ObjectStamp(size: size, modified: Int64(bitPattern: field()), changed: Int64(bitPattern: field()), inode: field()))
        }
    }

    /// Sorted by digest, each digest once.
    private(set) var records: [Record] = []

    package var count: Int { records.count }

    init() {}

    /// The stamps of `entries`, whose digests differ.
    package init(_ entries: some Sequence<(SHA1.Digest, ObjectStamp)>) {
        records = entries.map { Record(digest: $0.0, stamp: $0.1) }
        records.sort { $0.digest < $1.digest }
    }

    subscript(_ digest: SHA1.Digest) -> ObjectStamp? {
        let i = records.partitionPoint { $0.digest < digest }
        return i < records.count && records[i].digest == digest ? records[i].stamp : nil
    }

    package subscript(_ sha: String) -> ObjectStamp? {
        SHA1.Digest(hex: sha).flatMap { self[$0] }
    }

    /// Every stamp, in digest order.
    package var entries: some Sequence<(SHA1.Digest, ObjectStamp)> {
        records.lazy.map { ($0.digest, $0.stamp) }
    }

    /// The stamps `stamps` holds, read a piece at a time so that its bytes are never
    /// held beside the array they fill; else those of `stamps.json`, written to `stamps`
    /// at once (under a shared lock too: every writer writes the same bytes, atomically),
    /// so that an earlier client's file is parsed once; else none.
    package static func load(from repo: Repo) -> ObjectStamps {
        do {
            return try Reader.read(PosixFile.open(repo.root + "/" + fileName), keepingEvery: 1).stamps
        } catch let error as ZincError where error.errno == ENOENT {
            guard let legacy = try? AtomicFile.read(repo.root + "/" + legacyFileName, limit: 256 << 20) else { return ObjectStamps() }
            let stamps = parseLegacy(legacy)
            try? stamps.save(in: repo)
            return stamps
        } catch {
            return ObjectStamps()
        }
    }

    /// Writes `stamps` atomically, then removes the `stamps.json` of an earlier client,
    /// which `stamps` stands for from then on.
    package func save(in repo: Repo) throws {
        try Self.save(in: repo) { add in
            for record in records { try add(record.digest, record.stamp) }
        }
    }

    /// Writes the stamps `produce` gives (in digest order, each digest once) as
    /// `save(in:)` does, 64 KiB at a time: a check merges its stamps into the file with
    /// no array of them all beside the one it holds, nor the file's bytes whole.
    static func save(in repo: Repo, _ produce: ((SHA1.Digest, ObjectStamp) throws -> Void) throws -> Void) throws {
        try AtomicFile.write(to: repo.root + "/" + fileName, durable: false) { file in
            var bytes = magic
            bytes.reserveCapacity(1 << 16)
            try produce { digest, stamp in
                digest.appendBytes(to: &bytes)
                for field in [UInt64(bitPattern: stamp.size), UInt64(bitPattern: stamp.modified)] {
                    withUnsafeBytes(of: field.littleEndian) { bytes.append(contentsOf: $0) }
                }
                for field in [UInt64(bitPattern: stamp.changed), stamp.inode] {
                    withUnsafeBytes(of: field.littleEndian) { bytes.append(contentsOf: $0) }
                }
                if bytes.count > (1 << 16) - recordSize {
                    try file.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            try file.write(bytes)
        }
        unlink(repo.root + "/" + legacyFileName)
    }

    /// What can be believed of `bytes`, in either form: nothing of a torn or unsorted
    /// `stamps`, and of `stamps.json` the entries that are a sha and four integers.
    package static func parse(_ bytes: [UInt8]) -> ObjectStamps {
        guard bytes.starts(with: magic) else { return parseLegacy(bytes) }
        var reader = Reader()
        bytes.withUnsafeBytes { reader.read($0) }
        return reader.stamps
    }

    /// `stamps` read from consecutive pieces of the file, each record checked, every
    /// `keepingEvery`th kept (every one to load the file, fewer to look records up in it,
    /// `ObjectStampsFile`).
    struct Reader {
        private let keepingEvery: Int
        private var pending = [UInt8]()
        private var started = false
        private var broken = false
        private var read = ObjectStamps()
        private var last: SHA1.Digest?
        /// The records read.
        private(set) var count = 0

        init(keepingEvery: Int = 1) { self.keepingEvery = keepingEvery }

        /// The file read whole, 64 KiB at a time, room made first for the records kept.
        static func read(_ file: PosixFile, keepingEvery: Int) throws -> Reader {
            var reader = Reader(keepingEvery: keepingEvery)
            reader.expect(bytes: Int64(try file.status().st_size))
            try file.forEachChunk(chunkSize: 1 << 16) { reader.read($0) }
            return reader
        }

        /// Whether the bytes read ended on a whole record, each in order.
        var isSound: Bool { !broken && started && pending.isEmpty }

        /// What was kept, if the bytes are sound.
        var stamps: ObjectStamps { isSound ? read : ObjectStamps() }

        /// Makes room for the records of a file of `bytes` (at most 256 MiB), which is
        /// then never copied as it grows.
        private mutating func expect(bytes: Int64) {
            read.records.reserveCapacity(Int(min(max(bytes, 0), 256 << 20)) / recordSize / keepingEvery + 1)
        }

        mutating func read(_ piece: UnsafeRawBufferPointer) {
            guard !broken else { return }
            pending.append(contentsOf: piece)
            var start = 0
            if !started {
                guard pending.count >= magic.count else { return }
                guard pending.starts(with: magic) else {
                    broken = true
                    return
                }
                started = true
                start = magic.count
            }
            while pending.count - start >= recordSize {
                guard let record = Record(pending[start..<start + recordSize]), last.map({ $0 < record.digest }) ?? true else {
                    broken = true
                    return
                }
                if count % keepingEvery == 0 { read.records.append(record) }
                (last, count, start) = (record.digest, count + 1, start + recordSize)
            }
            pending.removeSubrange(..<start)
        }
    }

    private static func parseLegacy(_ bytes: [UInt8]) -> ObjectStamps {
        guard case .object(let top)? = try? JSONValue.parse(bytes), case .int(1)? = top["format"],
            case .object(let objects)? = top["objects"]
        else { return ObjectStamps() }
        return ObjectStamps(
            objects.compactMap { sha, value in
                guard let digest = SHA1.Digest(hex: sha), case .array(let fields) = value, fields.count == 4,
                    case .int(let size) = fields[0], size >= 0, case .int(let modified) = fields[1],
                    case .int(let changed) = fields[2], case .int(let inode) = fields[3]
                else { return nil }
                return (digest, ObjectStamp(size: size, modified: modified, changed: changed, inode: UInt64(bitPattern: inode)))
            })
    }
}
