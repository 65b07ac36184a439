/// Incremental SHA-1: OpenSSL's on Linux, CryptoKit's on Apple systems (see
/// `DigestAlgorithm`). Objects are named by the plain SHA-1 of their uncompressed bytes
/// (not git's blob hash).
public final class SHA1 {
    private let running = RunningDigest(.sha1)

    package init() {}

    /// Adds `bytes` to the hashed content.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        running.update(bytes)
    }

    /// Adds `bytes` to the hashed content.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lowercase hex digest; the hasher is spent afterwards.
    package func finalize() -> String { digest().hex }

    /// The digest as a value; the hasher is spent afterwards.
    package func digest() -> Digest {
        running.finish { Digest(bytes: $0) }
    }

    /// The SHA-1 of `bytes`, as 40 lowercase hexadecimal digits.
    package static func hash(_ bytes: [UInt8]) -> String {
        digest(bytes).hex
    }

    /// The SHA-1 of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> Digest {
        let hasher = SHA1()
        hasher.update(bytes)
        return hasher.digest()
    }

    /// The digest of a whole file, read in chunks (its holes, if sparse, are not read).
    package static func digest(file: PosixFile) throws -> Digest {
        let hasher = SHA1()
        try SparseReader(file).forEachChunk { hasher.update($0) }
        return hasher.digest()
    }
}
