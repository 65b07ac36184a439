#if !ZINC_OPENSSL
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The Ed25519 key on Apple systems (see `SigningKey`).
typealias Ed25519Key = CryptoKitEd25519Key

/// An Ed25519 private key in CryptoKit (on Linux, swift-crypto's copy of its API, which
/// `make portable-check` builds): what `SigningKey` signs with and `PublicKey` verifies
/// through where there is no OpenSSL, as in an iOS app.
struct CryptoKitEd25519Key: @unchecked Sendable {
    // Sendable: CryptoKit's keys are immutable values, which older SDKs do not mark so.
    private let key: Curve25519.Signing.PrivateKey

    /// Named in the errors of a library that misbehaves.
    static let library = "CryptoKit"

    private init(key: Curve25519.Signing.PrivateKey) { self.key = key }

    /// The key of a 32-byte seed (RFC 8032's private key); nil when refused.
    init?(seed: [UInt8]) {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return nil }
        self.init(key: key)
    }

    /// A new key from the system's random source.
    static func generate() -> CryptoKitEd25519Key? {
        CryptoKitEd25519Key(key: Curve25519.Signing.PrivateKey())
    }

    /// The 32-byte seed.
    var seed: [UInt8]? { Array(key.rawRepresentation) }

    /// The 32-byte public key.
    var publicKey: [UInt8]? { Array(key.publicKey.rawRepresentation) }

    /// The Ed25519 signature (64 bytes) of `message`. Apple's CryptoKit randomizes it
    /// (swift-crypto's is RFC 8032's deterministic one); either verifies the same.
    func sign(_ message: [UInt8]) -> [UInt8] {
        guard let signature = try? key.signature(for: message) else {
            fatalError("CryptoKit failed to sign with an Ed25519 key it loaded")
        }
        return Array(signature)
    }

    /// Whether `signature` is the Ed25519 signature of `message` by the 32-byte `publicKey`.
    static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
#endif
