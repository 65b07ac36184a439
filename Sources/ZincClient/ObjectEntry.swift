import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What objects/ holds under an object's name, looked at with one `lstat` (a missing
/// object, every one of a first sync's, costs no second call). An update without a spare
/// folder once looked at every object of the version it left while the new manifest was
/// in flight, keeping them in a dictionary (64 bytes an object in its buckets: 16.8 MB at
/// 100,000, past 60 MB at 1,000,000): each is now looked at as the check judges it.
enum ObjectEntry: Equatable, Sendable {
    /// A regular file, with its stamp.
    case file(ObjectStamp)
    /// Something else under the object's name (a folder, a link): damaged.
    case other
    case absent

    /// The entry of object `digest` in `repo`'s objects/.
    static func of(_ digest: SHA1.Digest, in repo: Repo) -> ObjectEntry {
        var info = stat()
        guard lstat(repo.objectFile(digest.hex), &info) == 0 else { return .absent }
        return info.st_mode & S_IFMT == S_IFREG ? .file(ObjectStamp(info)) : .other
    }
}
