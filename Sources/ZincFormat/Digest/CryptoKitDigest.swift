#if !ZINC_OPENSSL
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The running digest on Apple systems (see `DigestAlgorithm`).
typealias RunningDigest = CryptoKitDigest

/// One running digest of CryptoKit (on Linux, swift-crypto's copy of its API, which
/// `make portable-check` builds): what `SHA1`, `SHA256` and `MD5` are made of where
/// there is no OpenSSL, as in an iOS app.
final class CryptoKitDigest {
    private var function: any HashFunction

    init(_ algorithm: DigestAlgorithm) {
        function =
            switch algorithm {
            case .sha1: Insecure.SHA1()
            case .sha256: CryptoKitSHA256()
            case .md5: Insecure.MD5()
            }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        function.update(bufferPointer: bytes)
    }

    /// Hands the digest's bytes to `body`; the digest is spent afterwards.
    func finish<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        function.finalize().withUnsafeBytes(body)
    }
}

/// CryptoKit's SHA-256, which Zinc's own `SHA256` hides; its module name differs
/// between CryptoKit and swift-crypto.
#if canImport(CryptoKit)
typealias CryptoKitSHA256 = CryptoKit.SHA256
#else
typealias CryptoKitSHA256 = Crypto.SHA256
#endif
#endif
