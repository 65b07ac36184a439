extension SHA1 {
    /// A SHA-1 digest held as 20 bytes inline. Its 40-digit hex form is a String of its
    /// own (an 80-byte allocation), which tables of 100,000 objects would pay per entry.
    /// Digests order like their hex forms.
    public struct Digest: Hashable, Comparable, Sendable, CustomStringConvertible {
        // Big-endian words, so comparing them in turn compares the bytes in order. Five of
        // 32 bits, not two of 64 and one of 32: aligned to 4 bytes, a digest takes 20 in an
        // array or beside other fields (an object with its sizes 32, not 40), not 24.
        private let words: (UInt32, UInt32, UInt32, UInt32, UInt32)

        private var high: UInt64 { UInt64(words.0) << 32 | UInt64(words.1) }
        private var middle: UInt64 { UInt64(words.2) << 32 | UInt64(words.3) }
        private var low: UInt32 { words.4 }

        private init(high: UInt64, middle: UInt64, low: UInt32) {
            words = (
                UInt32(truncatingIfNeeded: high >> 32), UInt32(truncatingIfNeeded: high), UInt32(truncatingIfNeeded: middle >> 32),
                UInt32(truncatingIfNeeded: middle), low
            )
        }

        /// The digest of these 20 bytes.
        public init(bytes: some Collection<UInt8>) {
            precondition(bytes.count == 20, "a SHA-1 digest is 20 bytes")
            // Called from another module this runs unspecialized: contiguous bytes are read
            // as a buffer, not a byte at a time through the generic collection (which was
            // most of reading a repo's stamps).
            self = bytes.withContiguousStorageIfAvailable { Digest(digits: $0, bits: 8) } ?? Digest(digits: bytes, bits: 8)
        }

        /// The digest written as 40 lowercase hex digits; nil for anything else.
        public init?(hex: String) {
            // Through the string's contiguous bytes: iterating its UTF8View, as a manifest's
            // read did once a file, was most of the digest's cost.
            var hex = hex
            guard let digest = hex.withUTF8({ Digest(hexDigits: $0) }) else { return nil }
            self = digest
        }

        /// `init(hex:)` for a SHA-1 the caller vouches for (an object's, from a parsed
        /// manifest or a hash just computed); anything else is a programming error.
        package init(validHex hex: String) {
            guard let digest = Digest(hex: hex) else { preconditionFailure("'\(hex)' is not a SHA-1 in hex") }
            self = digest
        }

        /// `init(hex:)` for the digits' UTF-8, as read from a file.
        package init?(hexUTF8: some Collection<UInt8>) {
            guard
                let digest = hexUTF8.withContiguousStorageIfAvailable({ Digest(hexDigits: $0) })
                    ?? Array(hexUTF8).withUnsafeBufferPointer({ Digest(hexDigits: $0) })
            else { return nil }
            self = digest
        }

        /// `init(hex:)` for the digits' UTF-8 in memory: a parsed manifest makes one per
        /// file, so each digit is looked up in `hexValues` once, with no check beforehand.
        init?(hexDigits digits: UnsafeBufferPointer<UInt8>) {
            guard digits.count == 40 else { return nil }
            var words = (UInt64(0), UInt64(0), UInt64(0))
            var invalid: UInt8 = 0
            Self.hexValues.withUnsafeBufferPointer { values in
                func word(_ range: Range<Int>) -> UInt64 {
                    var word: UInt64 = 0
                    for i in range {
                        let value = values[Int(digits[i])]
                        invalid |= value
                        word = word << 4 | UInt64(value)
                    }
                    return word
                }
                words = (word(0..<16), word(16..<32), word(32..<40))
            }
            // Invalid digits have the high bit set, which no digit's value has.
            guard invalid & 0x80 == 0 else { return nil }
            self.init(high: words.0, middle: words.1, low: UInt32(truncatingIfNeeded: words.2))
        }

        /// Each byte's value as a lowercase hex digit, 0xFF for any other byte.
        private static let hexValues: [UInt8] = (0...255).map { byte in
            switch UInt8(byte) {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
            default: 0xFF
            }
        }

        /// Packs 160 bits given as digits of `bits` bits each, most significant first.
        /// Parsing a manifest makes one per file, so no array in between.
        private init(digits: some Sequence<UInt8>, bits: Int) {
            var words = (UInt64(0), UInt64(0), UInt32(0))
            var used = 0
            for digit in digits {
                switch used {
                case 0..<64: words.0 = words.0 << bits | UInt64(digit)
                case 64..<128: words.1 = words.1 << bits | UInt64(digit)
                default: words.2 = words.2 << bits | UInt32(digit)
                }
                used += bits
            }
            self.init(high: words.0, middle: words.1, low: words.2)
        }

        /// The 40 lowercase hex digits.
        public var hex: String {
            String(unsafeUninitializedCapacity: 40) { writeHex(to: $0) }
        }

        public var description: String { hex }

        package func appendHex(to out: inout [UInt8]) {
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: 40))
            out.withUnsafeMutableBufferPointer { _ = writeHex(to: UnsafeMutableBufferPointer(rebasing: $0[start...])) }
        }

        /// Writes the 40 digits at the start of `out` and returns 40. Names are built
        /// around them for every object an import stores and every archive member, so
        /// no String or array is made for the digits alone.
        @discardableResult
        func writeHex(to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
            precondition(out.count >= 40, "40 hex digits need 40 bytes")
            func put(_ word: UInt64, bytes: Int, at offset: Int) {
                for i in 0..<bytes {
                    let byte = UInt8(truncatingIfNeeded: word >> UInt64((bytes - 1 - i) * 8))
                    out[offset + 2 * i] = Self.hexDigit(byte >> 4)
                    out[offset + 2 * i + 1] = Self.hexDigit(byte & 0x0f)
                }
            }
            put(high, bytes: 8, at: 0)
            put(middle, bytes: 8, at: 16)
            put(UInt64(low), bytes: 4, at: 32)
            return 40
        }

        private static func hexDigit(_ value: UInt8) -> UInt8 {
            value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
        }

        /// The first 8 bytes: as good as random, hence a compact key where a rare
        /// false match only costs time.
        package var prefix: UInt64 { high }

        /// The first byte: what sorts digests into 256 buckets of their order.
        package var firstByte: Int { Int(high >> 56) }

        /// Appends the 20 bytes (`init(bytes:)` reads them back): records of many digests
        /// are kept in binary, half the size of their hex.
        package func appendBytes(to out: inout [UInt8]) {
            for i in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(i))) }
            for i in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: middle >> UInt64(i))) }
            for i in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt32(i))) }
        }

        public static func < (lhs: Digest, rhs: Digest) -> Bool {
            (lhs.high, lhs.middle, lhs.low) < (rhs.high, rhs.middle, rhs.low)
        }

        public static func == (lhs: Digest, rhs: Digest) -> Bool {
            lhs.words == rhs.words
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(high)
            hasher.combine(middle)
            hasher.combine(low)
        }
    }
}
