/// Incremental SHA-256 (OpenSSL's on Linux, CryptoKit's on Apple systems): what catalog
/// signatures cover (the index, manifests and every object's content), since SHA-1,
/// which names objects, no longer resists chosen-prefix collisions.
package final class SHA256 {
    private let running = RunningDigest(.sha256)

    package init() {}

    /// Adds `bytes` to the hashed content.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        running.update(bytes)
    }

    /// Adds `bytes` to the hashed content.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest; the hasher is spent afterwards.
    package func finalize() -> Digest {
        running.finish { Digest(bytes: Array($0)) }
    }

    /// The SHA-256 of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> Digest {
        let hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 of what `reader` holds from its position on, read 64 KiB at a time: a
    /// manifest of 112 MB is hashed with memory flat.
    package static func digest(reading reader: some StorageReader) throws -> Digest {
        let hasher = SHA256()
        try reader.forEachChunk(chunkSize: 1 << 16) { hasher.update($0) }
        return hasher.finalize()
    }

    /// A SHA-256 digest: 32 bytes, written as 64 lowercase hex digits.
    package struct Digest: Hashable, Sendable, CustomStringConvertible {
        package let bytes: [UInt8]

        init(bytes: [UInt8]) {
            precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes")
            self.bytes = bytes
        }

        /// 64 lowercase hex digits; nil for anything else.
        package init?(hex: some StringProtocol) {
            guard let bytes = Hex.decode(hex, count: 32) else { return nil }
            self.bytes = bytes
        }

        package var hex: String { Hex.encode(bytes) }
        package var description: String { hex }
    }
}

/// Lowercase hexadecimal, the one spelling of digests, keys and signatures in catalog files.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Exactly `count` bytes written as `2 * count` lowercase hex digits; nil otherwise
    /// (uppercase is refused too: one spelling per value).
    package static func decode(_ text: some StringProtocol, count: Int) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == count * 2 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for i in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = value(utf8[i]), let low = value(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
