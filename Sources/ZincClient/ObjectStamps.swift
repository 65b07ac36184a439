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

    init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
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
    static func of(_ path: String) -> ObjectStamp? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return ObjectStamp(info)
    }
}

/// The stamp of every object the repo vouched for (`stamps.json`). Linking and
/// unlinking an object's files changes its status-change time too, so a sync stamps
/// the objects it checked or fetched again after its own links and removals. Only a
/// shortcut: an object without a matching stamp is hashed, never trusted, so a missing,
/// damaged or foreign file costs hashing time and nothing else.
///
///     {"format":1,"objects":{"<sha>":[size, modified_ns, changed_ns, inode]}}
package struct ObjectStamps: Equatable, Sendable {
    static let fileName = "stamps.json"

    package private(set) var stamps: [String: ObjectStamp] = [:]

    subscript(_ sha: String) -> ObjectStamp? {
        get { stamps[sha] }
        set { stamps[sha] = newValue }
    }

    static func load(from repo: Repo) -> ObjectStamps {
        guard let bytes = try? AtomicFile.read(repo.root + "/" + fileName, limit: 256 << 20) else { return ObjectStamps() }
        return parse(bytes)
    }

    func save(in repo: Repo) throws {
        var objects = [String: JSONValue]()
        for (sha, stamp) in stamps {
            objects[sha] = .array([
                .int(stamp.size), .int(stamp.modified), .int(stamp.changed), .int(Int64(bitPattern: stamp.inode)),
            ])
        }
        try AtomicFile.write(
            JSONValue.object(["format": .int(1), "objects": .object(objects)]).encoded(), to: repo.root + "/" + Self.fileName,
            durable: false)
    }

    /// What can be believed of `bytes`: entries that are not a sha and four integers are left out.
    package static func parse(_ bytes: [UInt8]) -> ObjectStamps {
        var result = ObjectStamps()
        guard case .object(let top)? = try? JSONValue.parse(bytes), case .int(1)? = top["format"],
            case .object(let objects)? = top["objects"]
        else { return result }
        for (sha, value) in objects where Names.isSHA1(sha) {
            guard case .array(let fields) = value, fields.count == 4,
                case .int(let size) = fields[0], size >= 0, case .int(let modified) = fields[1],
                case .int(let changed) = fields[2], case .int(let inode) = fields[3]
            else { continue }
            result.stamps[sha] = ObjectStamp(size: size, modified: modified, changed: changed, inode: UInt64(bitPattern: inode))
        }
        return result
    }
}
