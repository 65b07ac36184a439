/// HMAC-SHA256 (RFC 2104), the keyed hash S3's Signature V4 chains: built on `SHA256`,
/// so it needs nothing of either crypto library beyond the digest. A request signs a
/// handful of short strings, so the two extra digests per call cost nothing measurable.
package enum HMACSHA256 {
    private static let blockSize = 64

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    package static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.digest(key).bytes : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let outer = SHA256()
        outer.update(block.map { $0 ^ 0x5C })
        outer.update(inner.finalize().bytes)
        return outer.finalize().bytes
    }
}
