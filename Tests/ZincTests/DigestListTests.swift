import Foundation
import Testing
import Zinc

/// The digest list and the version signature covering it, as the library writes and
/// parses them: round trips, and every hostile form refused with a specific reason.
@Suite struct DigestListTests {
    static let a = SHA256.digest(Array("a".utf8))
    static let b = SHA256.digest(Array("b".utf8))

    /// Files `é.txt` (object 1) and `z.txt`, `Z.txt` (object 2), and the list of their digests.
    static func manifest() throws -> Manifest {
        let one = "9591818c07e900db7e1e0bc4b884c945e6a61b24"
        let two = "f572d396fae9206628714fb2ce00f72e94f2258f"
        let json = """
            {"bundle":"B","catalog":"com.example.app","files":{\
            "z.txt":{"sha":"\(two)","formats":{"raw":{"size":1}}},\
            "\u{E9}.txt":{"sha":"\(one)","formats":{"raw":{"size":1}}},\
            "Z.txt":{"sha":"\(two)","formats":{"raw":{"size":1}}}},"flavors":[],"version":3}
            """
        return try Manifest.parse(Array(json.utf8), path: "m")
    }

    @Test func aListFollowsThePathsByteOrderAndPairsEachFileWithItsObject() throws {
        let manifest = try Self.manifest()
        let one = try #require(manifest.files["\u{E9}.txt"]).object.digest
        let two = try #require(manifest.files["z.txt"]).object.digest
        let list = DigestList(objects: [one: Self.a, two: Self.b], of: manifest)
        // "Z" (0x5A) < "z" (0x7A) < "é" (0xC3 0xA9).
        #expect(list.digests == [Self.b, Self.b, Self.a])
        let bytes = list.encoded()
        #expect(String(decoding: bytes, as: UTF8.self) == "zinc-digests 1\n\(Self.b.hex)\n\(Self.b.hex)\n\(Self.a.hex)\n")
        #expect(try DigestList.parse(bytes, path: "l") == list)
        #expect(try list.objects(of: manifest, path: "l") == [one: Self.a, two: Self.b])
        #expect(throws: ZincError.self) { try DigestList(digests: [Self.b, Self.a, Self.a]).objects(of: manifest, path: "l") }
        #expect(throws: ZincError.self) { try DigestList(digests: [Self.b, Self.b]).objects(of: manifest, path: "l") }
    }

    @Test(arguments: [
        ("zinc-digests 2\n", "does not start with 'zinc-digests 1'"),
        ("zinc-digests 1\nabc\n", "its lines are not each a SHA-256"),
        ("UPPER", "line 2 is not a SHA-256 in lowercase hex"),
        ("NO NEWLINE", "line 3 is not a SHA-256 in lowercase hex"),
    ])
    func aHostileListIsRefused(_ form: String, _ reason: String) throws {
        let text = String(decoding: DigestList(digests: [Self.a, Self.b]).encoded(), as: UTF8.self)
        let bytes: String
        switch form {
        case "UPPER": bytes = text.uppercased().replacingOccurrences(of: "ZINC-DIGESTS", with: "zinc-digests")
        case "NO NEWLINE": bytes = String(text.dropLast()) + " "
        default: bytes = form
        }
        #expect {
            try DigestList.parse(Array(bytes.utf8), path: "digests/B-1.txt.gz")
        } throws: { error in
            "\(error)".contains("digests/B-1.txt.gz") && "\(error)".contains(reason)
        }
    }

    /// A version signature may declare as many files as a list within the size limit has,
    /// header included (1,032,443: a manifest of 1,000,000 files fits), and not one more,
    /// whose list would be refused.
    @Test func aVersionSignatureDeclaresNoMoreFilesThanAListHolds() throws {
        let key = try SigningKey.generate()
        #expect(DigestList.maximumFiles == 1_032_443)
        #expect("zinc-digests 1\n".utf8.count + DigestList.maximumFiles * 65 <= DigestList.sizeLimit)
        #expect("zinc-digests 1\n".utf8.count + (DigestList.maximumFiles + 1) * 65 > DigestList.sizeLimit)
        func signature(files: Int) -> [UInt8] {
            VersionSignature(
                catalog: "com.example.app", bundle: "B", version: 3, manifestSHA256: SHA256.digest([1]), files: files,
                digestsSHA256: SHA256.digest([2])
            ).encoded(signedBy: key)
        }
        #expect(try VersionSignature.verified(signature(files: 1_032_443), path: "v.sig", trusted: [key.publicKey]).files == 1_032_443)
        #expect {
            try VersionSignature.verified(signature(files: 1_032_444), path: "v.sig", trusted: [key.publicKey])
        } throws: { error in
            "\(error)".contains("'files' must be a number from 0 to 1032443, not '1032444'")
        }
    }

    @Test func aVersionSignatureRoundTripsAndRefusesAnotherKind() throws {
        let key = try SigningKey.generate()
        let signature = VersionSignature(
            catalog: "com.example.app", bundle: "B", version: 3, manifestSHA256: SHA256.digest([1]), files: 2,
            digestsSHA256: SHA256.digest(DigestList(digests: [Self.a, Self.b]).encoded()))
        let bytes = signature.encoded(signedBy: key)
        var parsed = try VersionSignature.verified(bytes, path: "v.sig", trusted: [key.publicKey])
        #expect(parsed.keyID == key.publicKey.id)
        parsed.keyID = ""
        #expect(parsed == signature)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("zinc-signature 1\nkind version\ncatalog com.example.app\nbundle B\nversion 3\nsha "))
        let manifestKind = Array(text.replacingOccurrences(of: "kind version", with: "kind manifest").utf8)
        #expect(throws: ZincError.self) { try VersionSignature.verified(manifestKind, path: "v.sig", trusted: [key.publicKey]) }
        #expect(throws: ZincError.self) {
            try VersionSignature.verified(bytes, path: "v.sig", trusted: [try SigningKey.generate().publicKey])
        }
        #expect(VersionSignature.manifestPath(ofSignature: "signatures/versions/B-3.\(key.publicKey.id).sig") == "manifests/B-3.json")
        #expect(VersionSignature.manifestPath(ofSignature: "signatures/versions/B-3.sig") == nil)
        #expect(SignedManifest.path(ofSignature: "signatures/manifests/B-3.json.\(key.publicKey.id).sig") == "manifests/B-3.json")
    }
}
