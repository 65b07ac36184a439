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

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lowercase hex digest; the hasher is spent afterwards.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return hex(digest.prefix(Int(length)))
    }

    public static func hash(_ bytes: [UInt8]) -> String {
        let hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    public static func hash(file: PosixFile) throws -> String {
        let hasher = SHA1()
        try file.forEachChunk { hasher.update($0) }
        return hasher.finalize()
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    var out = [UInt8]()
    for byte in bytes {
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
}
