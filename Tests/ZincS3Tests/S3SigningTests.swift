import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Signing an `s3://` catalog through the built binary against moto: signatures go to
/// the bucket through the same storage as the rest, and a client reading the bucket over
/// HTTP with the public key syncs from it.
@Suite struct S3SigningTests {
    @Test func aSignedS3CatalogVerifiesAndSyncsWithTheKey() throws {
        let server = try MotoServer.shared()
        let bucket = try server.makeBucket(publicRead: true)
        let dir = try TemporaryDirectory()
        let zinc = ZincRunner(in: dir, environment: server.environment, silentStderr: false)
        let catalog = "s3://\(bucket)/cat"
        try zinc(["keygen", "--out", "k"])
        try SampleContent.basicAdjectives(in: dir)
        try zinc(["create_catalog", "--id", "com.example.s3signed", "--dest", catalog, "--sign-key", "k"])
        try zinc(["update_bundle", "--catalog", catalog, "--name", "B", "--source", "src", "--sign-key", "k"])
        try zinc(["update_distro", "--catalog", catalog, "--id", "B", "--name", "master", "--version", "1", "--sign-key", "k"])
        let id = try PublicKey.load(path: dir.at("k.pub")).id
        let keys = try server.keys(bucket: bucket, prefix: "cat").filter { $0.hasPrefix("cat/signatures/") }
        #expect(
            keys == [
                "cat/signatures/catalog.json.sig", "cat/signatures/manifests/B-1.json.\(id).sig", "cat/signatures/versions/B-1.\(id).sig",
            ])
        let signature = try IndexSignature.verified(
            try #require(try server.object(bucket: bucket, key: "cat/signatures/catalog.json.sig")),
            path: "sig", trusted: [PublicKey.load(path: dir.at("k.pub"))])
        let index = try #require(try server.object(bucket: bucket, key: "cat/catalog.json"))
        #expect(signature.indexSHA256 == SHA256.digest(index))
        #expect(try zinc(["sign", "--catalog", catalog, "--sign-key", "k"]).hasPrefix("Signed 0 manifests (1 already signed)"))
        #expect(try zinc(["verify", "--catalog", catalog, "--trusted-key", "k.pub"]).hasSuffix("no problems\n"))

        try zinc(["repo_init", "--repo", "repo"])
        try zinc([
            "track", "--repo", "repo", "--catalog", server.url(bucket: bucket, prefix: "cat"), "--bundle", "B",
            "--trusted-key", "k.pub",
        ])
        #expect(try zinc(["sync", "--repo", "repo"]).hasPrefix("com.example.s3signed.B: none -> 1 ("))
        #expect(dir.files(under: "repo/bundles/com.example.s3signed.B-1") == dir.files(under: "src"))
    }
}
