import Foundation
import Testing
import Zinc

/// The digest list and the version signature covering it, as the library writes and
/// parses them: round trips, and every hostile form refused with a specific reason.
@Suite struct DigestListTests {
    static let a = SHA1.Digest(hex: "9591818c07e900db7e1e0bc4b884c945e6a61b24")!
    static let b = SHA1.Digest(hex: "f572d396fae9206628714fb2ce00f72e94f2258f")!
    static let list = DigestList(objects: [
        b: SHA256.digest(Array("b".utf8)), a: SHA256.digest(Array("a".utf8)),
    ])

    @Test func aListRoundTripsInAscendingOrderOfSHA1() throws {
        let bytes = Self.list.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "zinc-digests 1\n\(Self.a.hex) \(SHA256.digest(Array("a".utf8)).hex)\n\(Self.b.hex) \(SHA256.digest(Array("b".utf8)).hex)\n"
        )
        #expect(try DigestList.parse(bytes, path: "l") == Self.list)
        #expect(try DigestList.parse(DigestList(objects: [:]).encoded(), path: "l").objects.isEmpty)
    }

    @Test(arguments: [
        ("zinc-digests 2\n", "does not start with 'zinc-digests 1'"),
        ("zinc-digests 1\nabc\n", "its lines are not each a SHA-1, a space and a SHA-256"),
        ("UPPER", "line 2 is not a SHA-1 and a SHA-256 in lowercase hex"),
        ("TAB", "line 2 is not a SHA-1 and a SHA-256 in lowercase hex"),
        ("DESCENDING", "its objects are not in ascending order of SHA-1"),
        ("TWICE", "its objects are not in ascending order of SHA-1"),
    ])
    func aHostileListIsRefused(_ form: String, _ reason: String) throws {
        let text = String(decoding: Self.list.encoded(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let bytes: String
        switch form {
        case "UPPER": bytes = text.uppercased().replacingOccurrences(of: "ZINC-DIGESTS", with: "zinc-digests")
        case "TAB": bytes = [lines[0], lines[1].replacingOccurrences(of: " ", with: "\t"), lines[2]].joined(separator: "\n") + "\n"
        case "DESCENDING": bytes = [lines[0], lines[2], lines[1]].joined(separator: "\n") + "\n"
        case "TWICE": bytes = [lines[0], lines[1], lines[1]].joined(separator: "\n") + "\n"
        default: bytes = form
        }
        #expect {
            try DigestList.parse(Array(bytes.utf8), path: "digests/B-1.txt.gz")
        } throws: { error in
            "\(error)".contains("digests/B-1.txt.gz") && "\(error)".contains(reason)
        }
    }

    @Test func aVersionSignatureRoundTripsAndRefusesAnotherKind() throws {
        let key = try SigningKey.generate()
        let signature = VersionSignature(
            catalog: "com.example.app", bundle: "B", version: 3, manifestSHA256: SHA256.digest([1]), objects: 2,
            digestsSHA256: SHA256.digest(Self.list.encoded()))
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
