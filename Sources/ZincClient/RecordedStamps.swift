import Zinc

/// The stamps a check goes by: loaded whole (`ObjectStamps`), for a sync that checks a
/// version whole, or looked up in their file (`ObjectStampsFile`), for one that looks up
/// a few (an update from a spare folder) or a batch at a time in digest order (`status`,
/// `repo verify`'s save).
/// Either way the same stamps: a file that fails a check is an empty one.
enum RecordedStamps: Sendable {
    case loaded(ObjectStamps)
    case file(ObjectStampsFile)

    /// The repo's stamps, looked up in their file when `few` lookups are expected.
    static func read(from repo: Repo, few: Bool) -> RecordedStamps {
        if few, let file = ObjectStampsFile(in: repo) { return .file(file) }
        return .loaded(ObjectStamps.load(from: repo))
    }

    subscript(_ digest: SHA1.Digest) -> ObjectStamp? {
        switch self {
        case .loaded(let stamps): stamps[digest]
        case .file(let file): file[digest]
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
