#if ZINC_OPENSSL
import CLibCrypto

/// The Ed25519 key on Linux (see `SigningKey`).
typealias Ed25519Key = EVPEd25519Key

/// An Ed25519 private key in OpenSSL's libcrypto: what `SigningKey` signs with and
/// `PublicKey` verifies through on Linux.
final class EVPEd25519Key: @unchecked Sendable {
    // Sendable: an EVP_PKEY is never changed after it is made, and each signature gets
    // a digest context of its own.
    private let key: OpaquePointer

    /// Named in the errors of a library that misbehaves.
    static let library = "libcrypto"

    private init(key: OpaquePointer) { self.key = key }

    deinit { EVP_PKEY_free(key) }

    /// The key of a 32-byte seed (RFC 8032's private key); nil when refused.
    convenience init?(seed: [UInt8]) {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { return nil }
        self.init(key: key)
    }

    /// A new key from the system's random source; nil when libcrypto cannot make one.
    static func generate() -> EVPEd25519Key? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else { return nil }
        return EVPEd25519Key(key: key)
    }

    /// The 32-byte seed.
    var seed: [UInt8]? { raw(EVP_PKEY_get_raw_private_key) }

    /// The 32-byte public key.
    var publicKey: [UInt8]? { raw(EVP_PKEY_get_raw_public_key) }

    private func raw(_ get: (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length = bytes.count
        guard get(key, &bytes, &length) == 1, length == 32 else { return nil }
        return bytes
    }

    /// The Ed25519 signature (64 bytes) of `message`.
    func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = signature.count
        // Ed25519 hashes the message itself: no digest is named, and it is signed in one call.
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
            EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == 64
        else {
            fatalError("libcrypto failed to sign with an Ed25519 key it loaded")
        }
        return signature
    }

    /// Whether `signature` is the Ed25519 signature of `message` by the 32-byte `publicKey`.
    static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, publicKey.count)
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
#endif
