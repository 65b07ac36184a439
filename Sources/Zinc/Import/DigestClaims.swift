import Synchronization

/// Which contents some worker has taken on to store while hashing, so a tree holding
/// one content in several files compresses and writes it once even when those files
/// are hashed at the same moment on different cores; and what each such file stored.
final class DigestClaims: Sendable {
    private struct State {
        /// The first 8 bytes of each claimed digest: a quarter of the memory of whole
        /// digests. Two contents sharing them (once in 2^64) only means the second is
        /// stored later, with the objects nobody stored while hashing.
        var claimed = Set<UInt64>()
        /// Per file: what it stored, `.none` for every other file.
        var storedSizes: [StoredObject.Sizes]
    }

    private let state: Mutex<State>

    init(fileCount: Int) {
        state = Mutex(State(storedSizes: Array(repeating: .none, count: fileCount)))
    }

    /// Per file: what it stored while hashing, `.none` for every other file.
    var storedSizes: [StoredObject.Sizes] { state.withLock { $0.storedSizes } }

    /// True for the first caller with `digest`, false for every later one.
    func claim(_ digest: SHA1.Digest) -> Bool {
        state.withLock { $0.claimed.insert(digest.prefix).inserted }
    }

    func record(_ object: StoredObject, forFile index: Int) {
        state.withLock { $0.storedSizes[index] = object.sizes }
    }
}
