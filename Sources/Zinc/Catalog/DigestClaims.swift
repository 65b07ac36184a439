import Synchronization

/// Which contents some worker has taken on to store while hashing, so a tree holding
/// one content in several files compresses and writes it once even when those files
/// are hashed at the same moment on different cores; and what each such file stored.
final class DigestClaims: @unchecked Sendable {
    /// Guards `claimed` and `storedSizes`.
    private let lock = Mutex(())
    /// The first 8 bytes of each claimed digest: a quarter of the memory of whole digests.
    /// Two contents sharing them (once in 2^64) only means the second is stored later,
    /// with the objects nobody stored while hashing.
    private var claimed = Set<UInt64>()
    /// Per file: what it stored, `.none` for every other file.
    private(set) var storedSizes: [StoredObject.Sizes]

    init(fileCount: Int) {
        storedSizes = Array(repeating: .none, count: fileCount)
    }

    /// True for the first caller with `digest`, false for every later one.
    func claim(_ digest: SHA1.Digest) -> Bool {
        lock.withLock { _ in claimed.insert(digest.prefix).inserted }
    }

    func record(_ object: StoredObject, forFile index: Int) {
        lock.withLock { _ in storedSizes[index] = object.sizes }
    }
}
