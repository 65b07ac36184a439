import Testing
import ZincHTTP

/// The reader of `multipart/byteranges` answers, fed as the network would: in chunks cut
/// anywhere, down to one byte at a time.
@Suite struct MultipartByterangesTests {
    static let body = Array(
        ("preamble a server may send\r\n--b0undary\r\nContent-Type: application/x-tar\r\n"
            + "Content-Range: bytes 0-3/100\r\n\r\nabcd\r\n--b0undary \r\ncontent-range:bytes 95-99/*\r\n\r\n"
            + "\r\n--b\r\n--b0undary--\r\nepilogue").utf8)

    /// The events, with each part's bytes joined: cutting the body anywhere changes nothing.
    static func read(_ body: [UInt8], step: Int) throws -> (parts: [ContentRange], bytes: [[UInt8]], complete: Bool) {
        var reader = try #require(MultipartByteranges(contentType: "Multipart/ByteRanges; charset=x; boundary=\"b0undary\""))
        var parts = [ContentRange]()
        var bytes = [[UInt8]]()
        var start = 0
        while start < body.count {
            let chunk = Array(body[start..<min(start + step, body.count)])
            start += step
            _ = try chunk.withUnsafeBytes { buffer in
                try reader.read(buffer) { event in
                    switch event {
                    case .part(let range):
                        parts.append(range)
                        bytes.append([])
                    case .data(let data):
                        bytes[bytes.count - 1] += data
                    }
                    return true
                }
            }
        }
        return (parts, bytes, reader.isComplete)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096]) func partsArriveWhereverTheBodyIsCut(step: Int) throws {
        let read = try Self.read(Self.body, step: step)
        #expect(read.parts.map(\.bytes) == [0..<4, 95..<100])
        #expect(read.parts.map(\.completeLength) == [100, nil])
        // The second part's bytes hold a line that starts like the boundary.
        #expect(read.bytes == [Array("abcd".utf8), Array("\r\n--b".utf8)])
        #expect(read.complete)
    }

    @Test func aBodyCutShortIsNotComplete() throws {
        let read = try Self.read(Array(Self.body.prefix(Self.body.count - 20)), step: 5)
        #expect(read.parts.count == 2 && !read.complete)
    }

    @Test func aStreamOfFieldsWithoutEndIsRefused() throws {
        let endless = Array("--b0undary\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: MultipartByteranges.maximumOverhead)
        #expect(throws: MultipartByteranges.Malformed.self) { try Self.read(endless, step: 1000) }
    }

    @Test(arguments: ["text/plain", "multipart/byteranges", "multipart/byteranges; boundary=", "multipart/mixed; boundary=x"])
    func otherTypesAreNotRead(contentType: String) {
        #expect(MultipartByteranges(contentType: contentType) == nil)
    }

    @Test(
        arguments: [
            ("bytes 0-0/1", 0..<1, 1), ("bytes 5-9/*", 5..<10, nil), ("BYTES  2-3/10 ", 2..<4, 10),
        ] as [(String, Range<Int64>, Int64?)])
    func contentRangesParse(field: String, bytes: Range<Int64>, complete: Int64?) throws {
        let range = try #require(ContentRange(field))
        #expect(range.bytes == bytes && range.completeLength == complete)
    }

    @Test(arguments: [
        "bytes 9-0/10", "bytes 0-9/9", "bytes -1-2/10", "bytes 0-99999999999999999999/*", "bytes 0-9223372036854775807/*",
        "bytes */10", "bytes 1-2", "items 1-2/3", "bytes +1-2/3", "bytes 1-2/-3", "",
    ])
    func invalidContentRangesAreRefused(field: String) {
        #expect(ContentRange(field) == nil)
    }
}
