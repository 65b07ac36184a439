import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Signature files as the library writes and parses them, and signing on the commit
/// path of a backend with no lock at all.
@Suite struct SigningTests {
    let key: SigningKey

    init() throws {
        key = try SigningKey.generate()
    }

    func indexSignature() -> IndexSignature {
        IndexSignature(
            catalog: "com.example.app", sequence: 42, signedAt: 1_700_000_000, expiresAt: 1_702_592_000,
            indexSHA256: SHA256.digest(Array("{}".utf8)))
    }

    @Test func anIndexSignatureRoundTripsAndCoversEveryByteBeforeItsSignatureLine() throws {
        let bytes = indexSignature().encoded(signedBy: key)
        var parsed = try IndexSignature.verified(bytes, path: "sig", trusted: [key.publicKey])
        #expect(parsed.keyID == key.publicKey.id)
        parsed.keyID = ""
        #expect(parsed == indexSignature())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "zinc-signature 1\nkind index\ncatalog com.example.app\nsequence 42\nsigned 1700000000\n"
                    + "expires 1702592000\nsha \(SHA256.digest(Array("{}".utf8)).hex)\nkey \(key.publicKey.id)\nsignature "))
        // Any byte changed before the signature line breaks it.
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "4") {
            var changed = bytes
            changed[index] = UInt8(ascii: "5")
            #expect(throws: ZincError.self) { try IndexSignature.verified(changed, path: "sig", trusted: [key.publicKey]) }
        }
    }

    @Test(arguments: [
        ("sequence 42\n", "sequence 042\n", "'sequence' must be a number"),
        ("sequence 42\n", "sequence -42\n", "'sequence' must be a number"),
        ("sequence 42\nsigned", "signed", "expected the field 'sequence' here"),
        ("kind index\n", "kind manifest\n", "is not a index signature"),
        ("zinc-signature 1\n", "zinc-signature 2\n", "does not start with 'zinc-signature 1'"),
        ("catalog com.example.app\n", "catalog com.example.app\nextra field\n", "expected the field 'sequence' here"),
        ("catalog com.example.app\n", "catalog com.example.app\r\n", "control characters"),
        ("catalog com.example.app\n", "catalog a/b\n", "invalid catalog id"),
    ])
    func aSignatureFileIsParsedStrictly(_ original: String, _ replacement: String, _ reason: String) throws {
        let text = String(decoding: indexSignature().encoded(signedBy: key), as: UTF8.self)
        let changed = text.replacingOccurrences(of: original, with: replacement)
        #expect(changed != text)
        #expect { try IndexSignature.parseUnverified(Array(changed.utf8), path: "sig") } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aSignatureByAnUntrustedKeyOrTooLargeIsRefused() throws {
        let other = try SigningKey.generate()
        let bytes = indexSignature().encoded(signedBy: other)
        #expect { try IndexSignature.verified(bytes, path: "sig", trusted: [key.publicKey]) } throws: { error in
            "\(error)".contains("signed by key \(other.publicKey.id), which is not trusted")
        }
        #expect(throws: ZincError.self) { try IndexSignature.parseUnverified(bytes + [UInt8](repeating: 0x41, count: 5000), path: "sig") }
    }

    @Test func keysRoundTripThroughTheirFiles() throws {
        let pem = try key.pem()
        #expect(try SigningKey.parse(pem: pem, path: "k").publicKey == key.publicKey)
        #expect(try PublicKey.parse(Array(key.publicKey.text.utf8), path: "k.pub") == key.publicKey)
        #expect(throws: ZincError.self) { try PublicKey.parse(Array(key.publicKey.text.uppercased().utf8), path: "k.pub") }
        #expect(throws: ZincError.self) { try SigningKey.parse(pem: Array(pem.dropLast(10)), path: "k") }
    }

    @Test func aManifestSignatureNamesItsManifestAndListsObjectsInOrder() throws {
        let path = ManifestSignature.path(bundle: "My-Bundle.v2", version: 7, keyID: key.publicKey.id)
        #expect(path == "signatures/manifests/My-Bundle.v2-7.json.\(key.publicKey.id).sig")
        #expect(ManifestSignature.manifestPath(ofSignature: path) == "manifests/My-Bundle.v2-7.json")
        #expect(ManifestSignature.manifestPath(ofSignature: "signatures/manifests/x.sig") == nil)
        let a = try #require(SHA1.Digest(hex: String(repeating: "a", count: 40)))
        let b = try #require(SHA1.Digest(hex: String(repeating: "b", count: 40)))
        let signature = ManifestSignature(
            catalog: "c", bundle: "B", version: 1, manifestSHA256: SHA256.digest([1]),
            objects: [b: SHA256.digest([2]), a: SHA256.digest([3])])
        let text = String(decoding: signature.encoded(signedBy: key), as: UTF8.self)
        #expect(text.contains("objects 2\nobject \(a.hex) \(SHA256.digest([3]).hex)\nobject \(b.hex) \(SHA256.digest([2]).hex)\n"))
        let swapped = text.replacingOccurrences(
            of: "object \(a.hex) \(SHA256.digest([3]).hex)\nobject \(b.hex) \(SHA256.digest([2]).hex)",
            with: "object \(b.hex) \(SHA256.digest([2]).hex)\nobject \(a.hex) \(SHA256.digest([3]).hex)")
        #expect { try ManifestSignature.parseUnverified(Array(swapped.utf8), path: "m") } throws: { "\($0)".contains("ascending order") }
    }

    /// Writers on a backend without locks, each committing a signed change at once: in
    /// the end the index signature covers the index committed last.
    @Test func concurrentSignedWritersLeaveASignatureOfTheCommittedIndex() throws {
        let storage = MemoryStorage()
        let signer = CatalogSigner(key: key)
        let dir = try TemporaryDirectory()
        try dir.write("src/a.txt", SampleContent.text(100))
        let catalog = try Catalog.create(id: "com.example.race", in: storage, signer: signer)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            _ = try? DistroUpdate(catalog, bundle: "B", distro: "d\(i)", to: .latest).run()
        }
        let index = try #require(try storage.read("catalog.json"))
        let signature = try IndexSignature.verified(
            try #require(try storage.read(IndexSignature.path)), path: "sig",
            trusted: [key.publicKey])
        #expect(signature.indexSHA256 == SHA256.digest(index))
        #expect(try catalog.index().bundles["B"]?.distributions.count == 8)
        #expect(try CatalogVerification(catalog, trustedKeys: [key.publicKey]).run().problems == [])
    }
}
