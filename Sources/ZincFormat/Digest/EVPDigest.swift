#if ZINC_OPENSSL
import CLibCrypto

/// The running digest on Linux (see `DigestAlgorithm`).
typealias RunningDigest = EVPDigest

/// One running digest of OpenSSL's EVP API: what `SHA1`, `SHA256` and `MD5` are made
/// of on Linux, where EVP's SHA-1 (with the CPU's SHA extensions) hashes assets fastest.
final class EVPDigest {
    private let context: OpaquePointer

    init(_ algorithm: DigestAlgorithm) {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.context = context
        let type =
            switch algorithm {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .md5: EVP_md5()
            }
        EVP_DigestInit_ex(context, type, nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Hands the digest's bytes to `body` without allocating; the digest is spent afterwards.
    func finish<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { buffer in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
            return body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(length)))
        }
    }
}
#endif
