/// An independent, minimal ustar parser for tests: the archive's members as written,
/// so tests check archive bytes without trusting the code under test.
public struct TarMember: Equatable, Sendable {
    public let name: String
    public let data: [UInt8]
    public let header: [UInt8]
}

public enum TarListing {
    public static func members(_ archive: [UInt8]) -> [TarMember]? {
        var members = [TarMember]()
        var offset = 0
        while offset + 512 <= archive.count {
            let header = Array(archive[offset..<(offset + 512)])
            if header.allSatisfy({ $0 == 0 }) { return members }
            let name = String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
            let sizeText = String(decoding: header[124..<136].prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
            guard let size = Int(sizeText, radix: 8) else { return nil }
            let start = offset + 512
            guard start + size <= archive.count else { return nil }
            members.append(TarMember(name: name, data: Array(archive[start..<(start + size)]), header: header))
            offset = start + (size + 511) / 512 * 512
        }
        return nil
    }
}
