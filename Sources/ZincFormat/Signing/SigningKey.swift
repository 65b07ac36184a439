#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A publisher's Ed25519 private key, through libcrypto on Linux and CryptoKit on Apple
/// systems (the same key files either way). On disk it is the PEM form of
/// PKCS#8 that `openssl genpkey -algorithm ed25519` writes (`-----BEGIN PRIVATE KEY-----`,
/// the 48-byte DER in base64); its public half goes beside it as `FILE.pub` (`PublicKey`).
public final class SigningKey: Sendable {
    private let key: Ed25519Key
    public let publicKey: PublicKey

    private init(key: Ed25519Key) throws {
        self.key = key
        guard let raw = key.publicKey else {
            throw ZincError.keyFile(path: "(memory)", reason: "\(Ed25519Key.library) gave no Ed25519 public key")
        }
        publicKey = try PublicKey(raw: raw)
    }

    /// A new key from the system's random source.
    public static func generate() throws -> SigningKey {
        guard let key = Ed25519Key.generate() else {
            throw ZincError.keyFile(path: "(new key)", reason: "\(Ed25519Key.library) could not generate an Ed25519 key")
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

    package static let pemHeader = "-----BEGIN PRIVATE KEY-----"
    package static let pemFooter = "-----END PRIVATE KEY-----"
    /// PKCS#8 of an Ed25519 key is this DER prefix (version 0, algorithm 1.3.101.112, an
    /// octet string of 34 bytes wrapping one of 32) followed by the 32-byte seed.
    package static let pkcs8Prefix: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]

    /// Reads an Ed25519 private key in PEM (PKCS#8); `path` names it in errors.
    package static func parse(pem: [UInt8], path: String) throws -> SigningKey {
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
        guard let key = Ed25519Key(seed: Array(der[16...])) else { throw bad("\(Ed25519Key.library) refused the key") }
        return try SigningKey(key: key)
    }

    /// The PEM text of the private key.
    package func pem() throws -> [UInt8] {
        guard let seed = key.seed else {
            throw ZincError.keyFile(path: "(memory)", reason: "\(Ed25519Key.library) gave no Ed25519 private key")
        }
        return Array("\(Self.pemHeader)\n\(Base64.encode(Self.pkcs8Prefix + seed))\n\(Self.pemFooter)\n".utf8)
    }

    /// The Ed25519 signature (64 bytes) of `message`. With libcrypto it is RFC 8032's
    /// deterministic one; Apple's CryptoKit randomizes it. Either verifies the same.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        key.sign(message)
    }

    /// Writes the private key to `path` (mode 0600) and the public key to `path.pub`,
    /// refusing to replace either: a key overwritten by mistake cannot be recovered.
    public func write(to path: String) throws {
        for file in [path, path + ".pub"] where access(file, F_OK) == 0 {
            throw ZincError.keyFile(path: file, reason: "already exists; refusing to overwrite a key")
        }
        try Self.createFolders(of: path)
        try Self.createExclusive(path, mode: 0o600, bytes: pem())
        try Self.createExclusive(path + ".pub", mode: 0o644, bytes: Array(publicKey.text.utf8))
    }

    /// Creates the missing folders above `path`, readable by their owner only: they hold
    /// private keys.
    private static func createFolders(of path: String) throws {
        var folder = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            folder += (folder.isEmpty && !path.hasPrefix("/") ? "" : "/") + component
            if component.isEmpty || access(folder, F_OK) == 0 { continue }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw ZincError.keyFile(path: path, reason: "cannot create the folder '\(folder)': \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func createExclusive(_ path: String, mode: mode_t, bytes: [UInt8]) throws {
        let file: PosixFile
        do { file = try PosixFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode) } catch let error as ZincError {
            throw ZincError.keyFile(path: path, reason: "\(error)")
        }
        // The umask must not widen or narrow what was asked for.
        guard fchmod(file.fd, mode) == 0 else { throw ZincError.io(path: path, operation: "chmod", errno: errno) }
        try file.write(bytes)
        try file.synchronize()
    }
}
