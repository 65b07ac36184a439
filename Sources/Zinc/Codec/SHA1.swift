import CLibCrypto

/// Incremental SHA-1 through OpenSSL's EVP digest API. Objects are named by the plain
/// SHA-1 of their uncompressed bytes (not git's blob hash).
public final class SHA1 {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha1(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hashed content.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Adds `bytes` to the hashed content.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lowercase hex digest; the hasher is spent afterwards.
    public func finalize() -> String { digest().hex }

    /// The digest as a value; the hasher is spent afterwards.
    public func digest() -> Digest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { buffer in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
            return Digest(bytes: buffer.prefix(Int(length)))
        }
    }

    /// The SHA-1 of `bytes`, as 40 lowercase hexadecimal digits.
    public static func hash(_ bytes: [UInt8]) -> String {
        digest(bytes).hex
    }

    /// The SHA-1 of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> Digest {
        let hasher = SHA1()
        hasher.update(bytes)
        return hasher.digest()
    }

    /// The digest of a whole file, read in chunks (its holes, if sparse, are not read).
    public static func digest(file: PosixFile) throws -> Digest {
        let hasher = SHA1()
        try SparseReader(file).forEachChunk { hasher.update($0) }
        return hasher.digest()
    }
}
