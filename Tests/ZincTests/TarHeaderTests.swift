import Testing
import Zinc

@Suite struct TarHeaderTests {
    @Test func writesADeterministicUstarHeader() throws {
        let header = try TarHeader.encode(name: "2e75c8e57ab9ed44cd8f0f8666da5761ea280973.gz", size: 8366)
        #expect(header.count == 512)
        func field(_ range: Range<Int>) -> String { String(decoding: header[range], as: UTF8.self) }
        #expect(field(0..<43) == "2e75c8e57ab9ed44cd8f0f8666da5761ea280973.gz")
        #expect(field(100..<108) == "0000644\0")
        #expect(field(108..<116) == "0000000\0")
        #expect(field(124..<136) == "00000020256\0")
        #expect(field(136..<148) == "00000000000\0")
        #expect(header[156] == UInt8(ascii: "0"))
        #expect(field(257..<265) == "ustar\u{0}00")
        #expect(header[265..<329].allSatisfy { $0 == 0 }, "owner and group names stay empty")
        var sum = 0
        for (i, byte) in header.enumerated() { sum += (148..<156).contains(i) ? 32 : Int(byte) }
        #expect(field(148..<156) == String(sum, radix: 8).leftPadded(to: 6) + "\0 ")
    }

    @Test func usesGNUBase256From8GiB() throws {
        let below = try TarHeader.encode(name: "a", size: TarHeader.maxOctalSize)
        #expect(String(decoding: below[124..<136], as: UTF8.self) == "77777777777\0")
        let size: Int64 = 9 << 30
        let header = try TarHeader.encode(name: "a", size: size)
        #expect(header[124] == 0x80)
        #expect(Array(header[125..<136]) == [0, 0, 0, 0, 0, 0, 0x02, 0x40, 0, 0, 0])
        #expect(TarHeader.decodeSize(header[124..<136]) == size)
        #expect(TarHeader.decodeSize(below[124..<136]) == TarHeader.maxOctalSize)
    }

    @Test func memberLengthIsHeaderPlusPaddedData() {
        #expect(TarHeader.memberLength(size: 0) == 512)
        #expect(TarHeader.memberLength(size: 1) == 1024)
        #expect(TarHeader.memberLength(size: 512) == 1024)
        #expect(TarHeader.memberLength(size: 513) == 1536)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
