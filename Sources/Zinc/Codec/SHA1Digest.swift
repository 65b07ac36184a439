extension SHA1 {
    /// A SHA-1 digest held as 20 bytes inline. Its 40-digit hex form is a String of its
    /// own (an 80-byte allocation), which tables of 100,000 objects would pay per entry.
    /// Digests order like their hex forms.
    public struct Digest: Hashable, Comparable, Sendable, CustomStringConvertible {
        // Big-endian words, so comparing them in turn compares the bytes in order.
        private let high: UInt64
        private let middle: UInt64
        private let low: UInt32

        /// The digest of these 20 bytes.
        public init(bytes: some Collection<UInt8>) {
            precondition(bytes.count == 20, "a SHA-1 digest is 20 bytes")
            var words = (UInt64(0), UInt64(0), UInt32(0))
            for (i, byte) in bytes.enumerated() {
                switch i {
                case 0..<8: words.0 = words.0 << 8 | UInt64(byte)
                case 8..<16: words.1 = words.1 << 8 | UInt64(byte)
                default: words.2 = words.2 << 8 | UInt32(byte)
                }
            }
            (high, middle, low) = words
        }

        /// The digest written as 40 lowercase hex digits; nil for anything else.
        public init?(hex: String) {
            self.init(hexUTF8: hex.utf8)
        }

        /// `init(hex:)` for the digits' UTF-8, as read from a file.
        init?(hexUTF8: some Collection<UInt8>) {
            var bytes = [UInt8]()
            bytes.reserveCapacity(20)
            var pending: UInt8?
            for char in hexUTF8 {
                let nibble: UInt8
                switch char {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
                default: return nil
                }
                if let first = pending {
                    guard bytes.count < 20 else { return nil }
                    bytes.append(first << 4 | nibble)
                    pending = nil
                } else {
                    pending = nibble
                }
            }
            guard bytes.count == 20, pending == nil else { return nil }
            self.init(bytes: bytes)
        }

        /// The 40 lowercase hex digits.
        public var hex: String {
            var out = [UInt8]()
            out.reserveCapacity(40)
            appendHex(to: &out)
            return String(decoding: out, as: UTF8.self)
        }

        public var description: String { hex }

        private static let hexDigits = Array("0123456789abcdef".utf8)

        func appendHex(to out: inout [UInt8]) {
            func put(_ word: UInt64, bytes: Int) {
                for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) {
                    let byte = UInt8(truncatingIfNeeded: word >> UInt64(shift))
                    out.append(Self.hexDigits[Int(byte >> 4)])
                    out.append(Self.hexDigits[Int(byte & 0x0f)])
                }
            }
            put(high, bytes: 8)
            put(middle, bytes: 8)
            put(UInt64(low), bytes: 4)
        }

        public static func < (lhs: Digest, rhs: Digest) -> Bool {
            (lhs.high, lhs.middle, lhs.low) < (rhs.high, rhs.middle, rhs.low)
        }
    }
}
