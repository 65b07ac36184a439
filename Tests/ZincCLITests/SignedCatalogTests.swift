import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Signed catalogs end to end: a publisher signs with `--sign-key`, `zinc serve` serves
/// the catalog on loopback, and a repo tracking it with `--trusted-key` syncs only what
/// the key signed, keeping its synced bundle whenever it refuses something.
@Suite struct SignedCatalogTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// Runs zinc expecting it to fail with `status`; returns stdout and stderr together.
    func zincFails(_ arguments: [String], status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try zinc.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout + result.stderr
    }

    /// `update_bundle --unsigned` of `src` into the signed `cat`: the change that leaves
    /// the index signature behind says so, with the command that signs it again.
    func unsignedImport(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try zinc.run(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--unsigned"])
        #expect(result.status == 0, sourceLocation: sourceLocation)
        #expect(
            result.stderr
                == "zinc: warning: the index of '\(dir.at("cat"))' is now unsigned: clients that trust its key refuse it until "
                + "'zinc sign --catalog \(dir.at("cat"))' signs it again\n", sourceLocation: sourceLocation)
    }

    static let v1Folder = "repo/bundles/com.example.signed.B-1"
    static let v2Folder = "repo/bundles/com.example.signed.B-2"

    /// Key `k`, a catalog `cat` signed with it holding version 1 of bundle B at master,
    /// served; a repo tracking it with the key, synced to version 1.
    func signedCatalogSynced(keys: [String] = ["k"]) throws -> ServeProcess {
        try zinc(["keygen", "--out", "k"])
        try SampleContent.basicAdjectives(in: dir)
        try zinc(["create_catalog", "--id", "com.example.signed", "--dest", "cat", "--sign-key", "k"])
        try zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--sign-key", "k"])
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1", "--sign-key", "k"])
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try zinc(["repo_init", "--repo", "repo"])
        try zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"] + keys.flatMap { ["--trusted-key", $0 + ".pub"] })
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: none -> 1 ("))
        #expect(try sameFiles("src", Self.v1Folder))
        return server
    }

    /// Version 2 of B (one more file), signed with `key`, at master.
    func publishVersion2(key: String = "k") throws {
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        try zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--sign-key", key])
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2", "--sign-key", key])
    }

    func sameFiles(_ source: String, _ folder: String) throws -> Bool {
        let files = dir.files(under: source)
        guard !files.isEmpty, dir.files(under: folder) == files else { return false }
        return try files.allSatisfy { try dir.read(source + "/" + $0) == dir.read(folder + "/" + $0) }
    }

    /// A failed sync: the message names the catalog and `reason`, and version 1 stays in
    /// place, whole, as the version in use.
    func syncRefused(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try zincFails(["sync", "--repo", "repo"], sourceLocation: sourceLocation)
        #expect(
            output.contains("catalog 'com.example.signed': refused ") && output.contains(reason), "\(output)",
            sourceLocation: sourceLocation)
        #expect(try sameFiles("src-v1", Self.v1Folder), sourceLocation: sourceLocation)
        #expect(try zinc(["status", "--repo", "repo"]).contains("local 1"), sourceLocation: sourceLocation)
    }

    /// A copy of the version 1 sources, since `publishVersion2` adds a file to src.
    func keepVersion1Sources() throws {
        for file in dir.files(under: "src") { try dir.write("src-v1/" + file, dir.read("src/" + file)) }
    }

    func writeIndexCopies(_ bytes: [UInt8]) throws {
        for name in ["catalog.json", "index.json"] { try dir.write("cat/" + name, bytes) }
        let gz = GzipCompressor.compress(bytes)
        for name in ["catalog.json.gz", "index.json.gz"] { try dir.write("cat/" + name, gz) }
    }

    func signingKey(_ name: String = "k") throws -> SigningKey { try SigningKey.load(path: dir.at(name)) }

    // MARK: Publisher side

    @Test func keygenWritesAPrivateKeyOnlyItsOwnerReadsAndNeverOverwritesOne() throws {
        let output = try zinc(["keygen", "--out", "k"])
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.at("k"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let publicKey = try PublicKey.load(path: dir.at("k.pub"))
        #expect(try signingKey().publicKey == publicKey)
        #expect(output == "Wrote the private key to k and the public key to k.pub\npublic key: \(publicKey.text)key id: \(publicKey.id)\n")
        #expect(String(decoding: try dir.read("k"), as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let before = try dir.read("k")
        #expect(try zincFails(["keygen", "--out", "k"]).contains("key file 'k': already exists; refusing to overwrite a key"))
        #expect(try dir.read("k") == before)
    }

    @Test func everyChangeIsSignedAndVerifies() throws {
        let server = try signedCatalogSynced()
        _ = server
        let id = try signingKey().publicKey.id
        #expect(dir.files(under: "cat/signatures") == ["catalog.json.sig", "manifests/B-1.json.\(id).sig", "versions/B-1.\(id).sig"])
        let signature = try IndexSignature.verified(
            dir.read("cat/signatures/catalog.json.sig"), path: "sig",
            trusted: [signingKey().publicKey])
        #expect(signature.indexSHA256 == SHA256.digest(try dir.read("cat/catalog.json")))
        #expect(signature.expiresAt - signature.signedAt == 30 * 86_400)
        #expect(try zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
        let sequence = signature.sequence
        // The Python tool's spelling signs too, and with $ZINC_SIGNING_KEY.
        try zinc(["distro:update", "-c", "cat", "-b", "B", "-d", "test", "-v", "1"], environment: ["ZINC_SIGNING_KEY": "k"])
        let next = try IndexSignature.verified(dir.read("cat/signatures/catalog.json.sig"), path: "sig", trusted: [signingKey().publicKey])
        let index = try dir.read("cat/catalog.json")
        #expect(next.sequence > sequence && next.indexSHA256 == SHA256.digest(index))
        // A publish copies the signatures with the catalog.
        try zinc(["publish", "--catalog", "cat", "--to", "copy"])
        #expect(try zinc(["verify", "--catalog", "copy", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
    }

    /// Without the key, a change to a signed catalog is refused before anything is
    /// written, naming the ways on; with --unsigned it is made, and clients refuse the
    /// catalog until `sign`.
    @Test func aChangeWithoutTheKeyIsRefusedAndWithUnsignedLeavesTheCatalogUnsignedUntilSignAgain() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        let before = dir.files(under: "cat")
        let refusals = [
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "1"],
            ["delete_distro", "--catalog", "cat", "--id", "B", "--name", "master"],
        ]
        for arguments in refusals {
            let refused = try zincFails(arguments, status: 1)
            #expect(
                refused
                    == "zinc: error: the catalog at '\(dir.at("cat"))' is signed: this change would leave its index unsigned, "
                    + "and clients that trust its key would refuse it until it is signed again; give --sign-key FILE "
                    + "(or set ZINC_SIGNING_KEY) to sign it, or --unsigned to change it anyway\n", "\(arguments)")
        }
        #expect(dir.files(under: "cat") == before)
        #expect(
            try zincFails(
                ["update_distro", "--catalog", "cat", "--id", "B", "--name", "x", "--version", "1", "--unsigned", "--sign-key", "k"],
                status: 64
            )
            .contains("give --sign-key or --unsigned, not both"))

        try unsignedImport()
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2", "--unsigned"])
        let report = try zincFails(["verify", "--catalog", "cat", "--trusted-key", "k.pub"], status: 2)
        #expect(report.contains("manifests/B-2.json: unsigned: no signature by a trusted key (run 'zinc sign --catalog \(dir.at("cat"))')"))
        #expect(report.contains("signatures/catalog.json.sig: covers another index than catalog.json holds: the index is unsigned"))
        #expect(!report.contains("(tampered)"))
        try syncRefused("catalog.json.gz: the index signature covers another index")

        #expect(
            try zinc(["sign", "--catalog", "cat", "--sign-key", "k"]).hasPrefix(
                "Signed 1 manifest (1 already signed) and the index with key "))
        #expect(try zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: 1 -> 2 ("))
        #expect(try sameFiles("src", Self.v2Folder))
    }

    /// A version imported with --unsigned, then promoted by a writer with the key: the
    /// promotion signs its manifest too, so clients that trust the key take it.
    @Test func promotingAVersionImportedUnsignedSignsItsManifest() throws {
        let server = try signedCatalogSynced()
        _ = server
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        try unsignedImport()
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "2", "--unsigned"])
        #expect(!dir.exists("cat/signatures/manifests/B-2.json.\(try signingKey().publicKey.id).sig"))
        #expect(try zinc(["promote", "--catalog", "cat", "B", "test", "master", "--sign-key", "k"]).hasPrefix("Promoted 'B-v2'"))
        #expect(try zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: 1 -> 2 ("))
        #expect(try sameFiles("src", Self.v2Folder))
    }

    @Test func cleanRemovesTheSignaturesOfRemovedManifestsNeverTheIndexSignature() throws {
        let server = try signedCatalogSynced()
        _ = server
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        try zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--sign-key", "k"])
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2", "--no-prev", "--sign-key", "k"])
        try zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--version", "1", "--sign-key", "k"])
        try zinc(["clean", "--catalog", "cat", "--force", "--grace", "0"])
        let id = try signingKey().publicKey.id
        #expect(dir.files(under: "cat/signatures") == ["catalog.json.sig", "manifests/B-2.json.\(id).sig", "versions/B-2.\(id).sig"])
        #expect(dir.files(under: "cat/digests") == ["B-2.chunks.json.gz", "B-2.txt.gz"])
        #expect(try zinc(["verify", "--catalog", "cat", "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))
    }

    // MARK: Client side

    @Test func aTamperedIndexIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try publishVersion2()
        // Whoever can write to the host holds clients on version 1 by editing the index.
        let original = try dir.read("cat/catalog.json")
        let tampered = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"master\":2", with: "\"master\":1")
        #expect(tampered != String(decoding: original, as: UTF8.self))
        try writeIndexCopies(Array(tampered.utf8))
        let output = try zincFails(["sync", "--repo", "repo"])
        #expect(output.contains("refused \(server.url)catalog.json.gz: the index signature covers another index"), "\(output)")
        #expect(try sameFiles("src-v1", Self.v1Folder))
    }

    @Test func aTamperedManifestIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try publishVersion2()
        // The same manifest but for one byte of whitespace: it parses, and is not what was signed.
        let json = try dir.read("cat/manifests/B-2.json") + Array(" ".utf8)
        try dir.write("cat/manifests/B-2.json", json)
        try dir.write("cat/manifests/B-2.json.gz", GzipCompressor.compress(json))
        try syncRefused("manifests/B-2.json: its SHA-256 is ")
        #expect(try zincFails(["verify", "--catalog", "cat", "--trusted-key", "k.pub"], status: 2).contains("(tampered)"))
    }

    @Test func aTamperedObjectIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try publishVersion2()
        let manifest = try Manifest.parse(dir.read("cat/manifests/B-2.json"), path: "m")
        let added = try #require(manifest.files["audio/basic-adj-12.caf"]?.object)
        // Other bytes of the very same stored size.
        var stored = try dir.read("cat/" + added.preferredPath)
        stored[stored.count / 2] ^= 0x55
        try dir.write("cat/" + added.preferredPath, stored)
        let output = try zincFails(["sync", "--repo", "repo", "--strategy", "objects"])
        #expect(output.contains("\(added.preferredPath) is damaged: "), "\(output)")
        #expect(try sameFiles("src-v1", Self.v1Folder))
    }

    /// SHA-1 collisions are out of reach, so the case is built the other way round: the
    /// signed record of an object is changed (and signed again with the key), so the
    /// object's SHA-1 matches the manifest and its SHA-256 does not match the signature.
    @Test func anObjectWhoseSHA1MatchesButWhoseSHA256DoesNotIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try publishVersion2()
        let key = try signingKey()
        let path = "cat/signatures/manifests/B-2.json.\(key.publicKey.id).sig"
        var signature = try ManifestSignature.parseUnverified(dir.read(path), path: path)
        let manifest = try Manifest.parse(dir.read("cat/manifests/B-2.json"), path: "m")
        let added = try #require(manifest.files["audio/basic-adj-12.caf"]?.object)
        let other = SHA256.digest(Array("not the content".utf8))
        signature.objects[added.digest] = other
        try dir.write(path, signature.encoded(signedBy: key))
        // And the version signature, which clients read first, through the digest list it covers.
        let list = DigestList(objects: signature.objects, of: manifest).encoded()
        let (gzipped, description) = try ManifestChunks.deflated(list, file: "digests/B-2.txt.gz")
        try dir.write("cat/digests/B-2.txt.gz", gzipped)
        try dir.write("cat/digests/B-2.chunks.json.gz", GzipCompressor.compress(description.encoded()))
        let versionPath = "cat/signatures/versions/B-2.\(key.publicKey.id).sig"
        var version = try VersionSignature.parseUnverified(dir.read(versionPath), path: versionPath)
        version.digestsSHA256 = SHA256.digest(list)
        try dir.write(versionPath, version.encoded(signedBy: key))
        for strategy in ["objects", "lmfo"] {
            let output = try zincFails(["sync", "--repo", "repo", "--strategy", strategy])
            #expect(
                output.contains(
                    "its content has SHA-256 \(SHA256.digest(try dir.read("src/audio/basic-adj-12.caf"))), "
                        + "but the manifest's signature records \(other)"), "\(strategy): \(output)")
            #expect(try sameFiles("src-v1", Self.v1Folder))
        }
        #expect(
            try zincFails(["verify", "--catalog", "cat", "--trusted-key", "k.pub"], status: 2)
                .contains("its content's SHA-256 is "))
    }

    @Test func aReplayedOlderSignedIndexIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        let names = ["catalog.json", "catalog.json.gz", "index.json", "index.json.gz", "signatures/catalog.json.sig"]
        let old = try names.map { try dir.read("cat/" + $0) }
        try publishVersion2()
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: 1 -> 2 ("))
        for (name, bytes) in zip(names, old) { try dir.write("cat/" + name, bytes) }
        let output = try zincFails(["sync", "--repo", "repo"])
        #expect(
            output.contains("refused \(server.url)signatures/catalog.json.sig: its sequence number ")
                && output.contains("the last one accepted (a rollback to an older index)"), "\(output)")
        #expect(try sameFiles("src", Self.v2Folder))
        #expect(try zinc(["status", "--repo", "repo"]).contains("local 2"))
    }

    @Test func anExpiredIndexSignatureIsRefused() throws {
        let server = try signedCatalogSynced()
        _ = server
        try keepVersion1Sources()
        try publishVersion2()
        let key = try signingKey()
        let path = "cat/signatures/catalog.json.sig"
        var signature = try IndexSignature.parseUnverified(dir.read(path), path: path)
        signature.signedAt -= 40 * 86_400
        signature.expiresAt = signature.signedAt + 30 * 86_400
        try dir.write(path, signature.encoded(signedBy: key))
        try syncRefused("the index signature expired ")
        #expect(
            try zincFails(["verify", "--catalog", "cat", "--trusted-key", "k.pub"], status: 2)
                .contains("signatures/catalog.json.sig: expired "))
        // Signing again moves the expiry: the client takes the catalog again.
        try zinc(["sign", "--catalog", "cat", "--sign-key", "k", "--expires-in", "7"])
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: 1 -> 2 ("))
    }

    @Test func anUnsignedCatalogIsRefusedWhenAKeyIsTrusted() throws {
        try zinc(["keygen", "--out", "k"])
        try SampleContent.basicAdjectives(in: dir)
        try zinc(["create_catalog", "--id", "com.example.signed", "--dest", "cat"])
        try zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"])
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try zinc(["repo_init", "--repo", "repo"])
        // `track` checks the index as a sync would, and keeps nothing of one it refuses.
        let output = try zincFails(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B", "--trusted-key", "k.pub"])
        #expect(
            output.contains("catalog 'com.example.signed': refused signatures/catalog.json.sig: missing: the catalog is not signed"),
            "\(output)")
        #expect(dir.files(under: "repo/catalogs").isEmpty && dir.files(under: "repo/bundles").isEmpty)
        #expect(try zinc(["status", "--repo", "repo"]).isEmpty)
        let report = try zincFails(["verify", "--catalog", "cat", "--trusted-key", "k.pub"], status: 2)
        #expect(
            report.contains("signatures/catalog.json.sig: missing: the index is unsigned")
                && report.contains("manifests/B-1.json: unsigned"))
    }

    @Test func aSignatureByAnotherKeyIsRefused() throws {
        let server = try signedCatalogSynced()
        try keepVersion1Sources()
        try zinc(["keygen", "--out", "other"])
        // Told to trust another key, `track` refuses the catalog and the repo keeps its key.
        let reason = "signed by key \(try signingKey().publicKey.id), which is not trusted"
        let output = try zincFails(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B", "--trusted-key", "other.pub"])
        #expect(output.contains("catalog 'com.example.signed': refused ") && output.contains(reason), "\(output)")
        // The publisher signs with a key the repo does not trust: the sync refuses it.
        try publishVersion2(key: "other")
        try syncRefused("signed by key \(try signingKey("other").publicKey.id), which is not trusted")
    }

    /// The publisher moves to a new key while clients trust both; once every manifest is
    /// signed with the new key too, clients that trust only the new key sync as well.
    @Test func keyRotationKeepsClientsTrustingBothKeysInSync() throws {
        try zinc(["keygen", "--out", "new"])
        let server = try signedCatalogSynced(keys: ["k", "new"])
        try publishVersion2(key: "new")
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.signed.B: 1 -> 2 ("))
        let newID = try signingKey("new").publicKey.id
        #expect(!dir.exists("cat/signatures/manifests/B-1.json.\(newID).sig"))
        try zinc(["sign", "--catalog", "cat"], environment: ["ZINC_SIGNING_KEY": "new"])
        #expect(dir.exists("cat/signatures/manifests/B-1.json.\(newID).sig"))
        #expect(try zinc(["verify", "--catalog", "cat", "--trusted-key", "new.pub"]).hasSuffix("no problems\n"))

        try zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "1", "--sign-key", "new"])
        try zinc(["repo_init", "--repo", "repo2"])
        try zinc(["track", "--repo", "repo2", "--catalog", server.url, "--bundle", "B", "--distro", "test", "--trusted-key", "new.pub"])
        #expect(try zinc(["sync", "--repo", "repo2"]).hasPrefix("com.example.signed.B: none -> 1 ("))
    }
}
