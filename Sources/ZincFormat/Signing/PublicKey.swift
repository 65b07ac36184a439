/// An Ed25519 public key a client or `verify` trusts. Its file is one line,
/// `ed25519 <64 hex digits of the raw key>`; its id, which signature files name, is the
/// hex of the first 8 bytes of the SHA-256 of the raw key.
public struct PublicKey: Hashable, Sendable {
    public let raw: [UInt8]
    /// 16 lowercase hex digits.
    public let id: String

    static let algorithm = "ed25519"

    public init(raw: [UInt8]) throws {
        guard raw.count == 32 else {
            throw ZincError.keyFile(path: "(public key)", reason: "an Ed25519 public key is 32 bytes, not \(raw.count)")
        }
        self.raw = raw
        id = Hex.encode(Array(SHA256.digest(raw).bytes.prefix(8)))
    }

    /// The key as its file holds it (`ed25519 HEX`), also what `repo.json` stores.
    public var text: String { "\(Self.algorithm) \(Hex.encode(raw))\n" }

    /// Parses the one line of a public key file (a final newline is optional).
    package static func parse(_ bytes: [UInt8], path: String) throws -> PublicKey {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard bytes.count <= 256, parts.count == 2, parts[0] == Self.algorithm, let raw = Hex.decode(parts[1], count: 32) else {
            throw ZincError.keyFile(
                path: path,
                reason: "not a public key: expected one line 'ed25519 <64 lowercase hex digits>' (the .pub file 'zinc keygen' writes)")
        }
        return try PublicKey(raw: raw)
    }

    /// Reads a public key file (as `zinc keygen` writes it).
    public static func load(path: String) throws -> PublicKey {
        let bytes: [UInt8]
        do { bytes = try PosixFile.open(path).readAll(upTo: 257) } catch let error as ZincError {
            throw ZincError.keyFile(path: path, reason: "\(error)")
        }
        return try parse(bytes, path: path)
    }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    package func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        Ed25519Key.isValid(signature, of: message, publicKey: raw)
    }
}
