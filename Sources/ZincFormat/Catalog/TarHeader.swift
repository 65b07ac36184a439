/// POSIX ustar member headers as Zinc archives use them: one regular-file member per
/// object, mode 0644, owner 0, mtime 0, no names for owner and group, so the same
/// members always give the same bytes. Sizes of 8 GiB and more, which do not fit the
/// 11 octal digits, use GNU base-256 in the same single header (no extension headers,
/// so member offsets stay computable from sizes alone).
package enum TarHeader {
    package static let blockSize = 512
    /// The largest size the octal field holds: 8 GiB - 1.
    package static let maxOctalSize: Int64 = (1 << 33) - 1

    /// The 512-byte header of a member `name` of `size` bytes.
    package static func encode(name: String, size: Int64) throws -> [UInt8] {
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 100 else { throw ZincError.tarMemberNameTooLong(name) }
        guard size >= 0 else { throw ZincError.negativeTarMemberSize(name: name, size: size) }
        var header = [UInt8](repeating: 0, count: blockSize)
        func put(_ bytes: [UInt8], at offset: Int) {
            header.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
        put(nameBytes, at: 0)
        put(octal(0o644, width: 8), at: 100)  // mode
        put(octal(0, width: 8), at: 108)  // uid
        put(octal(0, width: 8), at: 116)  // gid
        put(sizeField(size), at: 124)
        put(octal(0, width: 12), at: 136)  // mtime
        put(Array("        ".utf8), at: 148)  // checksum is computed over spaces
        header[156] = UInt8(ascii: "0")  // regular file
        put(Array("ustar\0".utf8), at: 257)
        put(Array("00".utf8), at: 263)
        put(octal(0, width: 8), at: 329)  // devmajor
        put(octal(0, width: 8), at: 337)  // devminor
        let checksum = header.reduce(0) { $0 + Int($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return header
    }

    /// The size a member occupies in the archive: its header plus padded data.
    package static func memberLength(size: Int64) -> Int64 {
        Int64(blockSize) + paddedLength(size)
    }

    /// `size` rounded up to whole blocks: the length a member's content takes in the archive.
    package static func paddedLength(_ size: Int64) -> Int64 {
        (size + Int64(blockSize) - 1) / Int64(blockSize) * Int64(blockSize)
    }

    static func sizeField(_ size: Int64) -> [UInt8] {
        if size <= maxOctalSize { return octal(Int(size), width: 12) }
        var field = [UInt8](repeating: 0, count: 12)
        field[0] = 0x80
        var remaining = UInt64(size)
        for i in stride(from: 11, through: 4, by: -1) {
            field[i] = UInt8(remaining & 0xff)
            remaining >>= 8
        }
        return field
    }

    /// Decodes a size field written in either encoding (for readers and verify).
    package static func decodeSize(_ field: ArraySlice<UInt8>) -> Int64? {
        guard let first = field.first else { return nil }
        if first & 0x80 != 0 {
            return field.dropFirst().reduce(Int64(first & 0x7f)) { ($0 << 8) | Int64($1) }
        }
        let digits = field.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        return Int64(String(decoding: digits, as: UTF8.self), radix: 8)
    }

    /// `width - 1` zero-padded octal digits and a NUL.
    static func octal(_ value: Int, width: Int) -> [UInt8] {
        let digits = String(value, radix: 8)
        return Array((String(repeating: "0", count: width - 1 - digits.count) + digits).utf8) + [0]
    }
}
