import Testing

@testable import Zinc

/// `sizes/B-V.json.gz` as untrusted input: what the parser refuses, and which sizes a
/// reader uses.
@Suite struct ContentSizesTests {
    static let sha = String(repeating: "ab", count: 20)

    @Test func roundTripsSortedAndCompact() throws {
        let other = String(repeating: "01", count: 20)
        let sizes = ContentSizes(sizes: [SHA1.Digest(hex: Self.sha)!: 5000, SHA1.Digest(hex: other)!: 0])
        let json = #"{"format":1,"sizes":{"\#(other)":0,"\#(Self.sha)":5000}}"#
        #expect(String(decoding: sizes.encoded(), as: UTF8.self) == json)
        #expect(try ContentSizes.parse(Array(json.utf8), path: "sizes/B-1.json.gz") == sizes)
    }

    @Test(arguments: [
        ("[]", "not a JSON object"),
        (#"{"format":2,"sizes":{}}"#, "not a sizes file of format 1"),
        (#"{"format":1,"sizes":[]}"#, "'sizes' is not an object"),
        (#"{"format":1,"sizes":{},"extra":1}"#, "unknown key 'extra'"),
        (#"{"format":1,"sizes":{"ABABABABABABABABABABABABABABABABABABABAB":1}}"#, "is not a SHA-1"),
        (#"{"format":1,"sizes":{"\#(sha)":-1}}"#, "is not a number of bytes from 0 to 1099511627776"),
        (#"{"format":1,"sizes":{"\#(sha)":1099511627777}}"#, "is not a number of bytes from 0 to 1099511627776"),
        (#"{"format":1,"sizes":{"\#(sha)":"12"}}"#, "is not a number of bytes"),
        (#"{"format":1,"sizes":{"\#(sha)":1.5}}"#, "is not a number of bytes"),
    ])
    func refusesWhatIsNotASizesFile(json: String, reason: String) {
        #expect {
            _ = try ContentSizes.parse(Array(json.utf8), path: "cat/sizes/B-1.json.gz")
        } throws: { error in
            "\(error)".hasPrefix("'cat/sizes/B-1.json.gz' is not a valid Zinc file: ") && "\(error)".contains(reason)
        }
    }

    /// A size counts only for an object the version stores gzipped only, and only when its
    /// stored bytes can inflate to it; sums of the largest sizes do not overflow.
    @Test func usesOnlySizesThatFitTheObject() throws {
        let file = ContentSizes(sizes: [SHA1.Digest(hex: Self.sha)!: 10_320])
        #expect(file.size(of: StoredObject(sha: Self.sha, formats: [.gz: 10])) == 10_320)
        #expect(file.size(of: StoredObject(sha: Self.sha, formats: [.gz: 9])) == nil)
        #expect(file.size(of: StoredObject(sha: Self.sha, formats: [.raw: 7])) == nil)
        #expect(file.size(of: StoredObject(sha: Self.sha, formats: [.raw: 7, .gz: 10])) == nil)
        #expect(StoredObject(sha: Self.sha, formats: [.raw: 7]).contentSize(sizes: file) == 7)
        #expect(StoredObject(sha: String(repeating: "cd", count: 20), formats: [.gz: 10]).contentSize(sizes: file) == nil)
        var total = SizeTotal()
        for _ in 0..<3 { total.add(Manifest.maximumObjectSize * (1 << 22)) }
        #expect(total.bytes == .max && total.unknown == 0)
    }
}
