/// XXH64 (seed 0), incremental: what names a content-defined chunk (see `ChunkList`).
/// Not a cryptographic hash, and not meant to be one: a chunk's hash says which bytes
/// to reuse or expect, and the object's SHA-1 decides; XXH64 costs a tenth of a SHA-1,
/// which an import would otherwise pay twice over every large file. Specified at
/// https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md.
package struct XXH64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        prime1 &+ prime2, prime2, 0, 0 &- prime1
    )
    private var total: UInt64 = 0
    /// Bytes of an unfinished 32-byte stripe.
    private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var pendingCount = 0

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        total &+= UInt64(bytes.count)
        var at = 0
        if pendingCount > 0 {
            let taken = min(32 - pendingCount, bytes.count)
            withUnsafeMutableBytes(of: &pending) { stripe in
                stripe.baseAddress!.advanced(by: pendingCount).copyMemory(from: base, byteCount: taken)
            }
            pendingCount += taken
            at = taken
            guard pendingCount == 32 else { return }
            withUnsafeBytes(of: pending) { consume(stripe: $0.baseAddress!) }
            pendingCount = 0
        }
        while bytes.count - at >= 32 {
            consume(stripe: base + at)
            at &+= 32
        }
        if at < bytes.count {
            let rest = bytes.count - at
            withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.copyMemory(from: base + at, byteCount: rest) }
            pendingCount = rest
        }
    }

    package func digest() -> UInt64 {
        var hash: UInt64
        if total >= 32 {
            hash =
                Self.rotate(lanes.0, 1) &+ Self.rotate(lanes.1, 7) &+ Self.rotate(lanes.2, 12) &+ Self.rotate(lanes.3, 18)
            func merge(_ lane: UInt64) { hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4 }
            merge(lanes.0)
            merge(lanes.1)
            merge(lanes.2)
            merge(lanes.3)
        } else {
            hash = Self.prime5
        }
        hash &+= total
        withUnsafeBytes(of: pending) { stripe in
            var at = 0
            while pendingCount - at >= 8 {
                hash ^= Self.round(0, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
                at += 8
            }
            if pendingCount - at >= 4 {
                hash ^= UInt64(UInt32(littleEndian: stripe.loadUnaligned(fromByteOffset: at, as: UInt32.self))) &* Self.prime1
                hash = Self.rotate(hash, 23) &* Self.prime2 &+ Self.prime3
                at += 4
            }
            while at < pendingCount {
                hash ^= UInt64(stripe[at]) &* Self.prime5
                hash = Self.rotate(hash, 11) &* Self.prime1
                at += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// The XXH64 of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = XXH64()
        hasher.update(bytes)
        return hasher.digest()
    }

    /// The XXH64 of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0) }
    }

    private mutating func consume(stripe: UnsafeRawPointer) {
        func word(_ i: Int) -> UInt64 { UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        lanes.0 = Self.round(lanes.0, word(0))
        lanes.1 = Self.round(lanes.1, word(1))
        lanes.2 = Self.round(lanes.2, word(2))
        lanes.3 = Self.round(lanes.3, word(3))
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
