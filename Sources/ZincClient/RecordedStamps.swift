import Zinc

/// The stamps a check goes by: looked up in their file (`ObjectStampsFile`), or, when an
/// earlier client's `stamps.json` stands for it and could not be written as one, loaded
/// (`ObjectStamps`). Either way the same stamps: a file that fails a check is an empty one.
enum RecordedStamps: Sendable {
    case loaded(ObjectStamps)
    case file(ObjectStampsFile)

    /// The repo's stamps, from its `stamps` (made from `stamps.json` first when there is
    /// only that).
    static func read(from repo: Repo) -> RecordedStamps {
        if let file = ObjectStampsFile(in: repo) { return .file(file) }
        let loaded = ObjectStamps.load(from: repo)
        if loaded.count > 0, let file = ObjectStampsFile(in: repo) { return .file(file) }
        return .loaded(loaded)
    }

    /// The stamp of `digest`, looked up from where `cursor` stands (`ObjectStampsFile.Cursor`).
    func stamp(of digest: SHA1.Digest, cursor: inout ObjectStampsFile.Cursor) -> ObjectStamp? {
        switch self {
        case .loaded(let stamps): stamps[digest]
        case .file(let file): file.stamp(of: digest, cursor: &cursor)
        }
    }

    /// The stamp of each of `digests` (in ascending order), given to `body` in that order:
    /// from the file, a pass forward over the stretches that may hold them.
    func forEachStamp(of digests: some Sequence<SHA1.Digest>, _ body: (ObjectStamp?) throws -> Void) rethrows {
        switch self {
        case .loaded(let stamps): for digest in digests { try body(stamps[digest]) }
        case .file(let file): try file.forEachStamp(of: digests, body)
        }
    }

    /// Every stamp, in digest order.
    var entries: AnySequence<(SHA1.Digest, ObjectStamp)> {
        switch self {
        case .loaded(let stamps): AnySequence(stamps.entries)
        case .file(let file): AnySequence(file.entries)
        }
    }
}
