import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recorded stamps carried through a removal that changes the status-change times of
/// objects it leaves (`untrack`: the links of its folder to objects other bundles share).
/// Which stamps match their object is noted before the removal, a bit a stamp; after it,
/// the stamps file is written again from itself in digest order: a stamp that matched is
/// taken afresh from its object (and dropped with it), one that did not is kept as it
/// was while its object is there. Where the stamps were loaded whole and a verdict kept
/// for each matching one (80 bytes an object: 8 MB at 100,000), this holds a bit an
/// object and 64 KiB of the file at a time.
struct StampsAcrossRemoval {
    private let repo: Repo
    private let recorded: RecordedStamps
    /// Bit `i % 64` of word `i / 64`: whether the `i`th recorded stamp matched its object.
    private var matched = [UInt64]()
    private var count = 0

    /// Notes which of `repo`'s recorded stamps match their objects now.
    init(repo: Repo) {
        self.repo = repo
        recorded = RecordedStamps.read(from: repo)
        for (digest, stamp) in recorded.entries {
            if count % 64 == 0 { matched.append(0) }
            if ObjectStamp.of(repo.objectFile(digest.hex)) == stamp { matched[count / 64] |= 1 << UInt64(count % 64) }
            count += 1
        }
    }

    /// Saves the stamps as the removal left their objects. A file that no longer reads
    /// back as it did (records fewer than noted) is left as it is: a stamp that no longer
    /// matches costs a hash, never trust in the wrong bytes.
    func save() {
        try? ObjectStamps.save(in: repo) { add in
            var i = 0
            for (digest, stamp) in recorded.entries {
                guard i < count else { throw Unaligned() }
                let path = repo.objectFile(digest.hex)
                if matched[i / 64] & (1 << UInt64(i % 64)) != 0 {
                    if let now = ObjectStamp.of(path) { try add(digest, now) }
                } else if access(path, F_OK) == 0 {
                    try add(digest, stamp)
                }
                i += 1
            }
            guard i == count else { throw Unaligned() }
        }
    }

    /// The file read again gave other records than the ones noted.
    private struct Unaligned: Error {}
}
