/// An independent, minimal ustar parser for tests: the archive's members as written,
/// so tests check archive bytes without trusting the code under test.
public struct TarMember: Equatable, Sendable {
    public let name: String
    public let data: [UInt8]
    public let header: [UInt8]
}

public enum TarListing {
    /// The members of a whole archive, up to its end-of-archive block; nil when a header's
    /// size is not octal, a member is cut short or the end block is missing.
    public static func members(_ archive: [UInt8]) -> [TarMember]? {
        var members = [TarMember]()
        var offset = 0
        while offset + 512 <= archive.count {
            let header = Array(archive[offset..<(offset + 512)])
            if header.allSatisfy({ $0 == 0 }) { return members }
            guard let size = size(header) else { return nil }
            let start = offset + 512
            guard start + size <= archive.count else { return nil }
            members.append(TarMember(name: name(header), data: Array(archive[start..<(start + size)]), header: header))
            offset = start + (size + 511) / 512 * 512
        }
        return nil
    }

    public struct ParseError: Error {}

    /// The complete members at the start of `bytes` (a range of an archive from its
    /// first byte), each header's `ustar` magic and checksum checked; a member cut short
    /// ends the list.
    public static func leadingMembers(_ bytes: [UInt8]) throws -> [TarMember] {
        var members = [TarMember]()
        var offset = 0
        while offset + 512 <= bytes.count {
            let header = Array(bytes[offset..<(offset + 512)])
            if header.allSatisfy({ $0 == 0 }) { break }
            guard String(decoding: header[257..<262], as: UTF8.self) == "ustar" else { throw ParseError() }
            var blank = header
            for i in 148..<156 { blank[i] = 0x20 }
            guard Int(field(header, 148..<156), radix: 8) == blank.reduce(0, { $0 + Int($1) }), let size = size(header) else {
                throw ParseError()
            }
            let start = offset + 512
            guard start + size <= bytes.count else { break }
            members.append(TarMember(name: name(header), data: Array(bytes[start..<(start + size)]), header: header))
            offset = start + (size + 511) / 512 * 512
        }
        return members
    }

    private static func name(_ header: [UInt8]) -> String {
        String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func size(_ header: [UInt8]) -> Int? {
        Int(field(header, 124..<136), radix: 8)
    }

    /// A numeric field's digits: up to its first NUL or space.
    private static func field(_ header: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: header[range].prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
    }
}
