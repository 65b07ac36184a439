import Testing
import Zinc
import ZincTestSupport

/// A stream over bytes in memory that hands out at most `step` bytes per read, so the
/// reader's buffering meets headers and data split at awkward places.
final class SteppedReader: StorageReader {
    private let bytes: [UInt8]
    private let step: Int
    private var offset = 0

    init(_ bytes: [UInt8], step: Int = 7) {
        self.bytes = bytes
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(step, buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + n)]))
        }
        offset += n
        return n
    }
}

/// A ustar archive laid out as Zinc writes them.
func tarArchive(_ members: [(name: String, data: [UInt8])], endBlocks: Int = 2) throws -> [UInt8] {
    var out = [UInt8]()
    for member in members {
        out += try TarHeader.encode(name: member.name, size: Int64(member.data.count))
        out += member.data
        out += [UInt8](repeating: 0, count: Int(TarHeader.paddedLength(Int64(member.data.count))) - member.data.count)
    }
    return out + [UInt8](repeating: 0, count: TarHeader.blockSize * endBlocks)
}

@Suite struct TarReaderTests {
    let members = [("a", SampleContent.noise(700, seed: 1)), ("b.gz", SampleContent.text(512)), ("c", [])]

    /// Every member the reader yields, with its data; stops where the data runs out.
    func readAll(_ reader: TarReader) throws -> [(name: String, size: Int64, data: [UInt8])] {
        var out = [(name: String, size: Int64, data: [UInt8])]()
        while let member = try reader.next() {
            var data = [UInt8]()
            let complete = try reader.readData { data += $0 }
            out.append((member.name, member.size, data))
            if !complete { break }
        }
        return out
    }

    @Test func readsEveryMemberOfACompleteArchive() throws {
        let archive = try tarArchive(members)
        let reader = TarReader(SteppedReader(archive), path: "x.tar", bufferSize: 512)
        let read = try readAll(reader)
        #expect(read.map(\.name) == ["a", "b.gz", "c"])
        #expect(read.map(\.size) == [700, 512, 0])
        #expect(read.map(\.data) == members.map(\.1))
        #expect(reader.ending == .endOfArchive)
        #expect(reader.position == Int64(archive.count - TarHeader.blockSize))
    }

    @Test func skipsDataThatIsNotRead() throws {
        let reader = TarReader(SteppedReader(try tarArchive(members), step: 100), path: "x.tar")
        var names = [String]()
        var offsets = [Int64]()
        while let member = try reader.next() {
            names.append(member.name)
            offsets.append(member.offset)
            #expect(member.isRegularFile)
        }
        #expect(names == ["a", "b.gz", "c"])
        #expect(offsets == [0, 512 + 1024, 512 + 1024 + 512 + 512])
        #expect(reader.ending == .endOfArchive)
    }

    @Test func aPrefixEndingAtAMemberBoundaryEndsTheStreamCleanly() throws {
        // What a client gets from `Range: bytes=0-N` for the first two members.
        let prefix = Array(try tarArchive(members).prefix(Int(TarHeader.memberLength(size: 700) + TarHeader.memberLength(size: 512))))
        let reader = TarReader(SteppedReader(prefix), path: "x.tar")
        let read = try readAll(reader)
        #expect(read.map(\.name) == ["a", "b.gz"])
        #expect(read.map(\.data) == [members[0].1, members[1].1])
        #expect(reader.ending == .endOfStream)
        // A range ending with the last member's data, before its padding, is as good.
        let unpadded = Array(try tarArchive(members).prefix(512 + 700))
        let short = TarReader(SteppedReader(unpadded), path: "x.tar")
        #expect(try readAll(short).map(\.data) == [members[0].1])
        #expect(short.ending == .endOfStream)
    }

    @Test func aStreamCutInsideDataOrAHeaderIsTruncated() throws {
        let archive = try tarArchive(members)
        let insideData = TarReader(SteppedReader(Array(archive.prefix(512 + 300))), path: "x.tar")
        let member = try #require(try insideData.next())
        var data = [UInt8]()
        #expect(try insideData.readData { data += $0 } == false)
        #expect(data == Array(members[0].1.prefix(300)))
        #expect(member.size == 700)
        #expect(insideData.ending == .truncated)
        #expect(try insideData.next() == nil)

        let insideHeader = TarReader(SteppedReader(Array(archive.prefix(1536 + 100))), path: "x.tar")
        #expect(try readAll(insideHeader).map(\.name) == ["a"])
        #expect(insideHeader.ending == .truncated)
        #expect(insideHeader.position == 1536 + 100)
    }

    @Test func readsTheBase256SizeOfHugeMembers() throws {
        let size: Int64 = 9 << 30
        let reader = TarReader(SteppedReader(try TarHeader.encode(name: "big", size: size) + [1, 2, 3]), path: "x.tar")
        let member = try #require(try reader.next())
        #expect(member.size == size)
        var data = [UInt8]()
        #expect(try reader.readData { data += $0 } == false)
        #expect(data == [1, 2, 3])
        #expect(reader.ending == .truncated)
    }

    /// A size field a hostile server made as large as it goes (base-256, 2^63 - 1): an
    /// error, not an overflow where the padding is computed.
    @Test func refusesASizeBeyondTheLargestObject() throws {
        for size in [Int64.max, Manifest.maximumObjectSize + 1] {
            var header = try TarHeader.encode(name: "big", size: 9 << 30)
            header.replaceSubrange(124..<136, with: [0x80, 0, 0, 0] + withUnsafeBytes(of: size.bigEndian, Array.init))
            header.replaceSubrange(148..<156, with: [UInt8](repeating: 0x20, count: 8))
            let checksum = header.reduce(0) { $0 + Int($1) }
            header.replaceSubrange(148..<156, with: Array(String(checksum, radix: 8).leftPadded(6).utf8) + [0, 0x20])
            let reader = TarReader(SteppedReader(header + [1, 2, 3]), path: "archives/B-1.tar")
            #expect(
                throws: ZincError.corruptFile(
                    path: "archives/B-1.tar",
                    reason:
                        "the tar header at byte 0 gives a size of \(size) bytes, above the largest object (\(Manifest.maximumObjectSize))")
            ) {
                try reader.next()
            }
        }
    }

    @Test func refusesADamagedHeaderNamingTheArchive() throws {
        var archive = try tarArchive(members)
        archive[1024 + 512 + 3] ^= 0x01  // inside the name of member "b.gz"
        let reader = TarReader(SteppedReader(archive), path: "archives/B-1.tar")
        #expect(try reader.next()?.name == "a")
        #expect(throws: ZincError.corruptFile(path: "archives/B-1.tar", reason: "the tar header at byte 1536 has a bad checksum")) {
            try reader.next()
        }
    }

    @Test func joinsTheUstarPrefixToTheName() throws {
        var header = try TarHeader.encode(name: "file.txt", size: 0)
        header.replaceSubrange(345..<348, with: Array("dir".utf8))
        header.replaceSubrange(148..<156, with: Array("        ".utf8))
        let checksum = String(header.reduce(0) { $0 + Int($1) }, radix: 8)
        header.replaceSubrange(148..<156, with: Array((String(repeating: "0", count: 6 - checksum.count) + checksum).utf8) + [0, 32])
        let reader = TarReader(SteppedReader(header + [UInt8](repeating: 0, count: 1024)), path: "x.tar")
        #expect(try reader.next()?.name == "dir/file.txt")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
