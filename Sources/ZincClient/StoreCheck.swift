import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the repo's objects and bundle folders still hold the bytes that were
/// verified. An object whose stamp (`ObjectStamps`) matches is trusted; one whose stamp
/// differs, or that has none, is hashed again. A sync uses the verdicts to fetch again
/// what was damaged and never to build a version from it, `status` and `repo verify` to
/// report it.
struct StoreCheck {
    enum Verdict: Equatable, Sendable {
        case sound
        case missing
        /// Not the content its name says, or not a regular file.
        case damaged
    }

    let repo: Repo
    /// Hash every object, whatever its stamp (`repo verify`).
    let thorough: Bool
    /// Read on a thread of its own once something needs it (`startReading`): a repo of
    /// many objects has a large file of them, parsed while a sync's first requests are in
    /// flight, and never read by a sync with nothing to check.
    private var recorded: BackgroundValue<RecordedStamps>?
    private var stamps: RecordedStamps {
        mutating get {
            beginReading()
            return recorded!.value
        }
    }
    /// Where the lookups of `object(_:)` stand in the stamps file: objects judged in digest
    /// order read it forward once.
    private var cursor = ObjectStampsFile.Cursor()
    /// What this check judged, and nothing else: its size follows the objects looked at.
    private var verdicts = ObjectVerdicts()
    /// Whether an object whose stamp did not vouch for it was hashed and found sound: its
    /// stamp is worth saving, even by a check that changes nothing (`status`).
    private(set) var hashedSound = false
    /// The checked-out folders found damaged, by this check or an earlier one.
    private var damage: DamageRecord

    init(repo: Repo, thorough: Bool = false) {
        self.repo = repo
        self.thorough = thorough
        damage = DamageRecord.load(from: repo)
    }

    /// Whether the checked-out folder named `descriptor` is trusted without a look at its
    /// files: no check found it damaged, and this one is not thorough.
    func trusts(folder descriptor: String) -> Bool {
        !thorough && !damage.names(descriptor)
    }

    /// Records whether the checked-out folder named `descriptor` holds its objects' bytes.
    mutating func record(folder descriptor: String, damaged: Bool) {
        damage.record(descriptor, damaged: damaged)
    }

    /// Saves which of the folders of `state` were found damaged, for the next sync.
    func saveDamage(of state: RepoState) throws {
        try damage.save(in: repo, checkedOut: state.checkedOutFolders)
    }

    /// Starts reading the recorded stamps beside the caller, which will ask for them soon
    /// (checked and marked every 64th, `ObjectStampsFile`). A thorough check looks none up:
    /// it reads them when it saves them.
    mutating func startReading() {
        if !thorough { beginReading() }
    }

    private mutating func beginReading() {
        if recorded == nil { recorded = BackgroundValue { [repo] in RecordedStamps.read(from: repo) } }
    }

    /// The recorded stamp of `digest`.
    private mutating func recordedStamp(of digest: SHA1.Digest) -> ObjectStamp? {
        let stamps = stamps
        return stamps.stamp(of: digest, cursor: &cursor)
    }

    /// Keeps the verdicts on `objects`, a version's that this check is about to judge
    /// whole, 2 bits each (`ObjectVerdicts.judgeWhole`).
    mutating func judgeWhole(_ objects: VersionObjects) { verdicts.judgeWhole(objects) }

    /// The verdict on object `digest`, hashing it when its stamp does not vouch for it.
    /// `rememberingSound`: whether a sound object hashed is remembered, for its stamp to be
    /// saved afresh; not by a caller that vouches for it later.
    mutating func object(_ digest: SHA1.Digest, rememberingSound: Bool = true) throws -> Verdict {
        if let known = verdicts[digest] { return known }
        let sha = digest.hex
        let verdict: Verdict
        switch ObjectEntry.of(digest, in: repo) {
        case .file(let now):
            // Vouched for by its stamp: nothing to remember, the stamp saved as it was
            // (an update's objects already in the repo, whose verdicts took 2.3 MB at
            // 100,000 objects and 23 MB at 1,000,000). The run's links change the
            // status-change times of the objects they touch, which it vouches for.
            if !thorough, recordedStamp(of: digest) == now { return .sound }
            verdict = try Self.hash(repo.objectFile(sha)) == sha ? .sound : .damaged
            hashedSound = hashedSound || verdict == .sound
        case .other: verdict = .damaged
        case .absent: verdict = .missing
        }
        // An absent object with no stamp to drop is not remembered (a thorough check has
        // read none): a first sync's every object, vouched for once it has them.
        if verdict == .sound && !rememberingSound && !thorough { return verdict }
        if verdict != .missing || thorough || recordedStamp(of: digest) != nil { verdicts[digest] = verdict }
        return verdict
    }

    /// Records an object known sound since the check began: verified into objects/ by a
    /// fetch, or linked anew into a folder (which changes its status-change time).
    mutating func vouch(for digest: SHA1.Digest) { verdicts[digest] = .sound }

    /// Forgets objects removed from the repo (by file name), whose stamps would vouch for nothing.
    mutating func forget(_ names: some Sequence<String>) {
        for digest in names.lazy.compactMap(SHA1.Digest.init(hex:)) where verdicts[digest] == nil { verdicts[digest] = .missing }
    }

    /// Removes a damaged object, so that it is fetched again: the files linked to it
    /// keep their bytes until their folder is rebuilt.
    mutating func discard(_ digest: SHA1.Digest) throws {
        let path = repo.objectFile(digest.hex)
        if unlink(path) != 0, errno != ENOENT {
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw ZincError.io(path: path, operation: "remove the damaged object", errno: errno)
            }
        }
        verdicts[digest] = .missing
    }

    /// The recorded stamp of each of `digests` (in ascending order), given to `body` in
    /// that order, looked up in one pass; none for a thorough check, which goes by no stamp.
    mutating func lookUpStamps(of digests: some Sequence<SHA1.Digest>, _ body: (ObjectStamp?) throws -> Void) rethrows {
        guard !thorough else { return }
        try stamps.forEachStamp(of: digests, body)
    }

    /// Whether the regular file at `path`, of inode `inode` on device `device`, whose stamp
    /// is not its object's (`lookUpStamps(of:_:)`), holds object `digest`'s bytes: a link to the
    /// object is judged as the object is, and any other file (a copy, where the file
    /// system refused the link) is hashed. A file whose `lstat` is the stamp of its object
    /// is the very file verified, unchanged since: sound with no call here.
    mutating func holdsUnstamped(_ digest: SHA1.Digest, inode: UInt64, device: UInt64, at path: @autoclosure () -> String) throws
        -> Bool
    {
        let sha = digest.hex
        var object = stat()
        let isLink =
            lstat(repo.objectFile(sha), &object) == 0 && UInt64(object.st_ino) == inode
            && UInt64(truncatingIfNeeded: object.st_dev) == device
        return isLink ? try self.object(digest) == .sound : try Self.hash(path()) == sha
    }

    /// Stamps the sound objects afresh, once the sync's own links and removals (which
    /// change an object's status-change time) are done, drops those found missing,
    /// damaged or removed, keeps the others' stamps as they were, and saves: the check's
    /// last step. Its system calls follow what was judged, not what the repo holds.
    /// Stamps are a shortcut: failing to save them costs the next run hashing time. A
    /// check that judged nothing leaves the file as it is. `vouched`: objects known
    /// sound whatever was judged of them (those of the folders a sync built whole, linking
    /// every one), merged in as they come, with no verdict held for each (a first sync's
    /// took 2.3 MB at 100,000 objects).
    mutating func saveStamps(vouched: [VersionObjects] = []) {
        var sound = VersionObjects.Union(vouched)
        guard recorded != nil || !verdicts.isEmpty || sound.peek != nil else { return }
        // Merged in order: the recorded stamps read from their file as the merge goes.
        let (stamps, repo) = (stamps, repo)
        verdicts.merge()
        let judged = verdicts
        // The verdicts, the objects vouched for and the recorded stamps, all in digest
        // order, merged into the file as it is written: each sound object stamped as it
        // comes, no array of stamps.
        try? ObjectStamps.save(in: repo) { add in
            let kept = stamps.entries.makeIterator()
            var next = kept.next()
            var given = judged.inOrder.makeIterator()
            var verdict = given.next()
            while verdict != nil || sound.peek != nil {
                let digest: SHA1.Digest
                let isSound: Bool
                if let vouched = sound.peek, verdict.map({ vouched <= $0.digest }) ?? true {
                    if verdict?.digest == vouched { verdict = given.next() }
                    (digest, isSound) = (vouched, true)
                    sound.advance()
                } else if let (judgedDigest, judgedVerdict) = verdict {
                    (digest, isSound) = (judgedDigest, judgedVerdict == .sound)
                    verdict = given.next()
                } else {
                    break
                }
                while let (recorded, stamp) = next, recorded < digest {
                    try add(recorded, stamp)
                    next = kept.next()
                }
                // Judged now: its recorded stamp is replaced, or dropped.
                if let (recorded, _) = next, recorded == digest { next = kept.next() }
                if isSound, let stamp = ObjectStamp.of(repo.objectFile(digest.hex)) { try add(digest, stamp) }
            }
            while let (recorded, stamp) = next {
                try add(recorded, stamp)
                next = kept.next()
            }
        }
    }

    private static func hash(_ path: String) throws -> String {
        try SHA1.digest(file: PosixFile.openForReading(path)).hex
    }
}
