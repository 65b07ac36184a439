import CLibCrypto

/// One running digest of OpenSSL's EVP API: what `SHA1` and `SHA256` are made of.
final class EVPDigest {
    private let context: OpaquePointer

    init(_ type: OpaquePointer?) {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.context = context
        EVP_DigestInit_ex(context, type, nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Hands the digest's bytes to `body` without allocating; the digest is spent afterwards.
    func finish<T>(_ body: (Slice<UnsafeMutableBufferPointer<UInt8>>) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { buffer in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
            return body(buffer.prefix(Int(length)))
        }
    }
}
