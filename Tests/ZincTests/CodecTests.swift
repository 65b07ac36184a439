import Testing
import Zinc
import ZincTestSupport

@Suite struct CodecTests {
    @Test func sha1MatchesKnownVectors() {
        #expect(SHA1.hash([]) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hash(Array("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func sha1IsTheSameInChunks() {
        let data = SampleContent.noise(3_000_001, seed: 9)
        let hasher = SHA1()
        for start in stride(from: 0, to: data.count, by: 65_537) {
            hasher.update(Array(data[start..<min(start + 65_537, data.count)]))
        }
        #expect(hasher.finalize() == SHA1.hash(data))
    }

    @Test func digestsRoundTripTheirHexAndSortLikeIt() throws {
        let shas =
            (0..<200).map { SHA1.hash(Array("\($0)".utf8)) }
            + [
                "0000000000000000000000000000000000000000", "ffffffffffffffffffffffffffffffffffffffff",
                "00000000000000000000000000000000000000ff", "00000000000000ff000000000000000000000000",
            ]
        let digests = try shas.map { try #require(SHA1.Digest(hex: $0)) }
        #expect(digests.map(\.hex) == shas)
        #expect(digests.sorted().map(\.hex) == shas.sorted())
        let hasher = SHA1()
        hasher.update(Array("abc".utf8))
        #expect(hasher.digest() == SHA1.Digest(hex: "a9993e364706816aba3e25717850c26c9cd0d89d"))
        // Only the form manifests use: 40 lowercase hex digits.
        for bad in [
            "", "A9993E364706816ABA3E25717850C26C9CD0D89D", "a9993e364706816aba3e25717850c26c9cd0d89",
            "a9993e364706816aba3e25717850c26c9cd0d89d0", "g9993e364706816aba3e25717850c26c9cd0d89d",
            // 40 bytes of UTF-8 but 39 characters: the digits are counted in bytes.
            "a9993e364706816aba3e25717850c26c9cd0d8\u{E9}",
        ] {
            #expect(SHA1.Digest(hex: bad) == nil)
        }
        // 20 bytes, contiguous or not, make the digest they are.
        let abc = SHA1.digest(Array("abc".utf8))
        var bytes = [UInt8]()
        abc.appendBytes(to: &bytes)
        #expect(SHA1.Digest(bytes: ([0] + bytes)[1...]) == abc)
        #expect(SHA1.Digest(bytes: repeatElement(UInt8(0xab), count: 20)).hex == String(repeating: "ab", count: 20))
        // A slice of a longer string reads as its own digits.
        let longer = "a9993e364706816aba3e25717850c26c9cd0d89d and more"
        #expect(SHA1.Digest(hex: String(longer.prefix(40)))?.hex == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    /// A digest takes 20 bytes in an array (a client holds one per object), and digests
    /// that compare equal hash alike.
    @Test func digestsTakeTwentyBytesAndHashAsTheyCompare() {
        #expect(MemoryLayout<SHA1.Digest>.stride == 20)
        let digests = (0..<1_000).map { SHA1.digest(Array("\($0 % 500)".utf8)) }
        #expect(Set(digests).count == 500)
        #expect(Dictionary(digests.map { ($0, 1) }, uniquingKeysWith: +).values.allSatisfy { $0 == 2 })
    }

    @Test func gzipRoundTripsAndIsDeterministic() throws {
        let text = SampleContent.text(200_000)
        let gz = GzipCompressor.compress(text)
        #expect(gz.count < text.count / 10)
        #expect(gz == GzipCompressor.compress(text))
        // A gzip header: magic, deflate, no flags, mtime 0.
        #expect(Array(gz.prefix(8)) == [0x1f, 0x8b, 8, 0, 0, 0, 0, 0])
        #expect(try GzipDecompressor.decompress(gz) == text)
    }

    @Test func gunzipRefusesASecondMemberAndTruncation() throws {
        let one = GzipCompressor.compress(Array("first".utf8))
        let two = one + GzipCompressor.compress(Array("second".utf8))
        #expect(throws: GzipDecompressor.Failure.trailingData) { try GzipDecompressor.decompress(two) }
        #expect(throws: GzipDecompressor.Failure.truncated) { try GzipDecompressor.decompress(Array(one.dropLast(9))) }
        var flipped = GzipCompressor.compress(SampleContent.text(5000))
        flipped[12] ^= 0xff
        #expect(throws: (any Error).self) { try GzipDecompressor.decompress(flipped) }
    }
}
