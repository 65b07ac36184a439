import CLibCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A publisher's Ed25519 private key, through libcrypto. On disk it is the PEM form of
/// PKCS#8 that `openssl genpkey -algorithm ed25519` writes (`-----BEGIN PRIVATE KEY-----`,
/// the 48-byte DER in base64); its public half goes beside it as `FILE.pub` (`PublicKey`).
public final class SigningKey: @unchecked Sendable {
    // Sendable: an EVP_PKEY is never changed after it is made, and each signature gets
    // a digest context of its own.
    private let key: OpaquePointer
    public let publicKey: PublicKey

    private init(key: OpaquePointer) throws {
        self.key = key
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else {
            EVP_PKEY_free(key)
            throw ZincError.keyFile(path: "(memory)", reason: "libcrypto gave no Ed25519 public key")
        }
        publicKey = try PublicKey(raw: raw)
    }

    deinit { EVP_PKEY_free(key) }

    /// A new key from the system's random source.
    public static func generate() throws -> SigningKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else {
            throw ZincError.keyFile(path: "(new key)", reason: "libcrypto cannot make Ed25519 keys")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw ZincError.keyFile(path: "(new key)", reason: "libcrypto could not generate an Ed25519 key")
        }
        return try SigningKey(key: key)
    }

    /// The key in a PEM file (at most 4 KiB, one PKCS#8 Ed25519 key and nothing else).
    public static func load(path: String) throws -> SigningKey {
        let bytes: [UInt8]
        do { bytes = try PosixFile.open(path).readAll(upTo: 4096) } catch let error as ZincError {
            throw ZincError.keyFile(path: path, reason: "\(error)")
        }
        return try parse(pem: bytes, path: path)
    }

    static let pemHeader = "-----BEGIN PRIVATE KEY-----"
    static let pemFooter = "-----END PRIVATE KEY-----"
    /// PKCS#8 of an Ed25519 key is this DER prefix (version 0, algorithm 1.3.101.112, an
    /// octet string of 34 bytes wrapping one of 32) followed by the 32-byte seed.
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

    /// Reads an Ed25519 private key in PEM (PKCS#8); `path` names it in errors.
    public static func parse(pem: [UInt8], path: String) throws -> SigningKey {
        func bad(_ reason: String) -> ZincError { .keyFile(path: path, reason: reason) }
        guard let text = String(validating: pem, as: UTF8.self) else { throw bad("not text") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard lines.count == 3, lines[0] == pemHeader, lines[2] == pemFooter else {
            throw bad("not a PEM private key ('\(pemHeader)', one line of base64, '\(pemFooter)')")
        }
        guard let der = Base64.decode(lines[1]), der.count == 48, der.starts(with: pkcs8Prefix) else {
            throw bad("not an Ed25519 private key in PKCS#8 form (make one with 'zinc keygen')")
        }
        let seed = Array(der[16...])
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else {
            throw bad("libcrypto refused the key")
        }
        return try SigningKey(key: key)
    }

    /// The PEM text of the private key.
    public func pem() throws -> [UInt8] {
        var seed = [UInt8](repeating: 0, count: 32)
        var length = seed.count
        guard EVP_PKEY_get_raw_private_key(key, &seed, &length) == 1, length == 32 else {
            throw ZincError.keyFile(path: "(memory)", reason: "libcrypto gave no Ed25519 private key")
        }
        return Array("\(Self.pemHeader)\n\(Base64.encode(Self.pkcs8Prefix + seed))\n\(Self.pemFooter)\n".utf8)
    }

    /// The Ed25519 signature (64 bytes) of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
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

    /// Writes the private key to `path` (mode 0600) and the public key to `path.pub`,
    /// refusing to replace either: a key overwritten by mistake cannot be recovered.
    public func write(to path: String) throws {
        for file in [path, path + ".pub"] where access(file, F_OK) == 0 {
            throw ZincError.keyFile(path: file, reason: "already exists; refusing to overwrite a key")
        }
        try Self.createExclusive(path, mode: 0o600, bytes: pem())
        try Self.createExclusive(path + ".pub", mode: 0o644, bytes: Array(publicKey.text.utf8))
    }

    private static func createExclusive(_ path: String, mode: mode_t, bytes: [UInt8]) throws {
        let file: PosixFile
        do { file = try PosixFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode) } catch let error as ZincError {
            throw ZincError.keyFile(path: path, reason: "\(error)")
        }
        // The umask must not widen or narrow what was asked for.
        guard fchmod(file.fd, mode) == 0 else { throw ZincError.io(path: path, operation: "chmod", errno: errno) }
        try file.write(bytes)
        guard fsync(file.fd) == 0 else { throw ZincError.io(path: path, operation: "sync", errno: errno) }
    }
}

/// Base64 through libcrypto, for PEM bodies: strict, unwrapped, padded.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let n = EVP_EncodeBlock(&output, bytes, Int32(bytes.count))
        return String(decoding: output.prefix(Int(n)), as: UTF8.self)
    }

    /// nil for anything but canonical base64 (length a multiple of 4, at most two `=`).
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        guard !input.isEmpty, input.count % 4 == 0, input.count <= 1 << 16 else { return nil }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, input.dropLast(padding).allSatisfy(alphabet.contains) else { return nil }
        var output = [UInt8](repeating: 0, count: input.count / 4 * 3)
        guard EVP_DecodeBlock(&output, input, Int32(input.count)) == Int32(output.count) else { return nil }
        return Array(output.dropLast(padding))
    }
}
