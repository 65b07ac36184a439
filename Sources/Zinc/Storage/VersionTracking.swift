/// What makes a backend's ``StorageVersion`` of a path change: each commit, or only its
/// bytes. The catalog is correct either way; a backend declares which it is so that
/// `StorageConformanceSuite` holds it to the promise it makes, as restic's backend tests
/// take each backend's settings, rather than tolerating failures it recognises.
public enum VersionTracking: Equatable, Sendable {
    /// Every commit makes a new version, even of the very bytes already there (a local
    /// file's inode and change stamp, a generation count): a compare-and-swap fails
    /// after any commit since its read.
    case everyCommit
    /// A version is a digest of the content (an S3 ETag): putting back the very bytes
    /// already there, written the same way, keeps the version, so a compare-and-swap
    /// against a read made before still succeeds. Harmless for the index, whose swap
    /// only needs the content it computed from to be current.
    case content
}
