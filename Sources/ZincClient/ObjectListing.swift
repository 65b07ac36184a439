import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Some objects' files as they were looked at in one pass: the objects of the version a
/// bundle has, stamped while the manifest of its next version is in flight, so that the
/// update's check of the hundreds it shares with it costs no system call once the
/// manifest arrives (`StoreCheck.object(_:listed:)`). Only this sync changes objects (it
/// holds the repo lock), and it records each change it makes in its check's verdicts,
/// which come before the listing.
struct ObjectListing: Sendable {
    enum Entry: Equatable, Sendable {
        /// A regular file, with its stamp.
        case file(ObjectStamp)
        /// Something else under the object's name (a folder, a link): damaged.
        case other
        case absent
    }

    private(set) var entries: [SHA1.Digest: Entry] = [:]

    /// The entry of each of `digests` in `repo`'s objects/.
    static func of(_ digests: some Sequence<SHA1.Digest>, in repo: Repo) -> ObjectListing {
        var listing = ObjectListing()
        var info = stat()
        for digest in digests {
            // One `lstat` an object: a missing one (every object of a first sync) costs no second call.
            if lstat(repo.objectFile(digest.hex), &info) != 0 {
                listing.entries[digest] = .absent
            } else {
                listing.entries[digest] = info.st_mode & S_IFMT == S_IFREG ? .file(ObjectStamp(info)) : .other
            }
        }
        return listing
    }

    subscript(_ digest: SHA1.Digest) -> Entry? { entries[digest] }
}
