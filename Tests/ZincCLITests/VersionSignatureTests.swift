import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Version signatures end to end: a signed import writes, beside the manifest signature
/// old clients read (unchanged), a digest list and a small signature covering it, and a
/// repo's one-file update fetches the list as a delta, not the manifest signature's
/// 113 bytes per object; a wrong list or signature is never used.
@Suite struct VersionSignatureTests {
    typealias CLI = ClientSyncTests
    typealias Update = ManifestDeltaTests

    /// The bytes of version 2's manifest signature by key `k`, what the update would
    /// fetch without version signatures.
    private static func manifestSignatureSize(_ dir: TemporaryDirectory) throws -> Int {
        try dir.read("cat/signatures/manifests/B-2.json.\(keyID(dir)).sig").count
    }

    private static func keyID(_ dir: TemporaryDirectory) throws -> String {
        try PublicKey.load(path: dir.at("k.pub")).id
    }

    /// The plain digest list of version `version`.
    private static func digestList(_ dir: TemporaryDirectory, version: Int) throws -> [UInt8] {
        try GzipDecompressor.decompress(dir.read("cat/digests/B-\(version).txt.gz"))
    }

    @Test func aOneFileUpdateFetchesTheDigestListAsADelta() throws {
        let dir = try TemporaryDirectory()
        let server = try Update.updateOfOneFile(in: dir, signed: true)
        let signatureSize = try Self.manifestSignatureSize(dir)
        let bundle = try Update.syncToVersion2(dir)
        #expect(bundle["manifest_delta_error"] == nil, "\(bundle)")
        let moved = try #require(bundle["bytes"] as? Int)
        // The manifest's and the list's descriptions and changed chunks, the version
        // signature and the changed object: far below the manifest signature alone.
        #expect(moved < signatureSize / 4, "moved \(moved) where the manifest signature is \(signatureSize) bytes: \(bundle)")
        #expect(try dir.read("repo/manifests/com.example.game/B-2.digests") == Self.digestList(dir, version: 2))
        _ = server
    }

    @Test func anOlderSignedCatalogSyncsThroughTheManifestSignature() throws {
        let dir = try TemporaryDirectory()
        let server = try Update.updateOfOneFile(in: dir, signed: true)
        for folder in ["cat/signatures/versions", "cat/digests"] { try FileManager.default.removeItem(atPath: dir.at(folder)) }
        let signatureSize = try Self.manifestSignatureSize(dir)
        let bundle = try Update.syncToVersion2(dir)
        #expect(bundle["manifest_delta_error"] == nil, "no version signature is no error: \(bundle)")
        #expect(try #require(bundle["bytes"] as? Int) > signatureSize, "\(bundle)")
        _ = server
    }

    /// A digest list that lies about the changed object's SHA-256, consistently with its
    /// description, or a version signature not made by the key, is refused: the sync says
    /// why, falls back to the manifest signature and builds exactly version 2.
    @Test(arguments: ["forged list", "forged signature", "missing list"])
    func aWrongDigestListOrVersionSignatureIsNeverUsed(_ lie: String) throws {
        let dir = try TemporaryDirectory()
        let server = try Update.updateOfOneFile(in: dir, signed: true)
        let signaturePath = "cat/signatures/versions/B-2.\(try Self.keyID(dir)).sig"
        switch lie {
        case "forged list":
            let manifest = try Manifest.parse(dir.read("cat/manifests/B-2.json"), path: "B-2.json")
            let changed = try #require(manifest.files["level-15/item-1500.txt"]).object.digest
            var list = try DigestList.parse(Self.digestList(dir, version: 2), path: "list")
            let objects = try list.objects(of: manifest, path: "list")
            list.digests = list.digests.map { $0 == objects[changed] ? SHA256.digest(Array("another content".utf8)) : $0 }
            let (gzipped, description) = try ManifestChunks.deflated(list.encoded(), file: "digests/B-2.txt.gz")
            try dir.write("cat/digests/B-2.txt.gz", gzipped)
            try dir.write("cat/digests/B-2.chunks.json.gz", GzipCompressor.compress(description.encoded()))
        case "forged signature":
            var bytes = try dir.read(signaturePath)
            let digits = try #require(String(decoding: bytes, as: UTF8.self).range(of: "\ndigests ")).upperBound.utf16Offset(
                in: String(decoding: bytes, as: UTF8.self))
            bytes[digits] = bytes[digits] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            try dir.write(signaturePath, bytes)
        default:
            try FileManager.default.removeItem(atPath: dir.at("cat/digests/B-2.txt.gz"))
        }
        let signatureSize = try Self.manifestSignatureSize(dir)
        let bundle = try Update.syncToVersion2(dir)
        #expect(bundle["manifest_delta_error"] is String, "\(bundle)")
        #expect(try #require(bundle["bytes"] as? Int) > signatureSize, "the manifest signature instead: \(bundle)")
        #expect(try !dir.files(under: "repo/manifests/com.example.game").contains("B-2.digests"))
        let verify = try dir.zinc.run(["verify", "--catalog", "cat", "--trusted-key", "k.pub"])
        #expect(verify.status != 0, "\(verify)")
        #expect(
            (verify.stdout + verify.stderr).contains(lie == "forged signature" ? "B-2.\(try Self.keyID(dir)).sig" : "digests/B-2.txt.gz"))
        _ = server
    }

    /// What a signed import writes, in a form old clients read unchanged; `verify`
    /// checks it, `publish` copies it, `clean` removes a deleted version's, and `sign`
    /// adds it to versions signed before version signatures.
    @Test func signedVersionsCarryTheirListsThroughVerifyPublishCleanAndSign() throws {
        let dir = try TemporaryDirectory()
        let server = try Update.updateOfOneFile(in: dir, signed: true)
        let id = try Self.keyID(dir)
        #expect(
            dir.files(under: "cat/signatures") == [
                "catalog.json.sig", "manifests/B-1.json.\(id).sig", "manifests/B-2.json.\(id).sig", "versions/B-1.\(id).sig",
                "versions/B-2.\(id).sig",
            ])
        #expect(dir.files(under: "cat/digests") == ["B-1.chunks.json.gz", "B-1.txt.gz", "B-2.chunks.json.gz", "B-2.txt.gz"])
        // The manifest signature is what it was before version signatures: the same bytes.
        let key = try SigningKey.load(path: dir.at("k"))
        let old = try ManifestSignature.parseUnverified(dir.read("cat/signatures/manifests/B-2.json.\(id).sig"), path: "sig")
        #expect(try old.encoded(signedBy: key) == dir.read("cat/signatures/manifests/B-2.json.\(id).sig"))
        let list = try Self.digestList(dir, version: 2)
        let manifest = try Manifest.parse(dir.read("cat/manifests/B-2.json"), path: "B-2.json")
        #expect(try DigestList.parse(list, path: "list").objects(of: manifest, path: "list") == old.objects)
        let version = try VersionSignature.verified(
            dir.read("cat/signatures/versions/B-2.\(id).sig"), path: "sig", trusted: [key.publicKey])
        #expect(version.digestsSHA256 == SHA256.digest(list) && version.manifestSHA256 == old.manifestSHA256)
        #expect(version.files == manifest.files.count)
        #expect(try dir.zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))

        try dir.zinc(["publish", "--catalog", "cat", "--to", "copy"])
        #expect(dir.files(under: "copy/digests") == dir.files(under: "cat/digests"))
        #expect(dir.files(under: "copy/signatures") == dir.files(under: "cat/signatures"))
        #expect(try dir.zinc(["verify", "--catalog", "copy", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))

        // Signed before version signatures: `sign` adds the same files, old signatures untouched.
        let before = dir.files(under: "cat/digests").map { try? dir.read("cat/digests/" + $0) }
        let versionSignature = try dir.read("cat/signatures/versions/B-1.\(id).sig")
        for folder in ["cat/signatures/versions", "cat/digests"] { try FileManager.default.removeItem(atPath: dir.at(folder)) }
        #expect(try dir.zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
        try dir.zinc(["sign", "--catalog", "cat", "--sign-key", "k"])
        #expect(dir.files(under: "cat/digests").map { try? dir.read("cat/digests/" + $0) } == before)
        #expect(try dir.read("cat/signatures/versions/B-1.\(id).sig") == versionSignature)
        #expect(try dir.zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))

        // Version 3 at master leaves version 1 unpointed (`_master` moves to 2).
        try dir.write("src/level-0/item-0.txt", "item 0, patched")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet", "--sign-key", "k"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "3", "--sign-key", "k"])
        try dir.zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--version", "1", "--sign-key", "k"])
        try dir.zinc(["clean", "--catalog", "cat", "--force", "--grace", "0"])
        #expect(dir.files(under: "cat/digests") == ["B-2.chunks.json.gz", "B-2.txt.gz", "B-3.chunks.json.gz", "B-3.txt.gz"])
        #expect(
            dir.files(under: "cat/signatures") == [
                "catalog.json.sig", "manifests/B-2.json.\(id).sig", "manifests/B-3.json.\(id).sig", "versions/B-2.\(id).sig",
                "versions/B-3.\(id).sig",
            ])
        #expect(try dir.zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
        _ = server
    }
}
