import Testing
import Zinc

@testable import ZincS3

/// `s3://BUCKET/PREFIX` as the user types it: what is accepted, how keys map to catalog
/// paths, and what is refused before any request is made.
@Suite struct S3AddressTests {
    @Test func parsesBucketsAndPrefixes() throws {
        #expect(try S3Address(parsing: "s3://bucket") == S3Address(bucket: "bucket", prefix: ""))
        #expect(try S3Address(parsing: "s3://bucket/") == S3Address(bucket: "bucket", prefix: ""))
        #expect(try S3Address(parsing: "s3://bucket/a/b/") == S3Address(bucket: "bucket", prefix: "a/b"))
        #expect(try S3Address(parsing: "s3://bucket//a//b//") == S3Address(bucket: "bucket", prefix: "a/b"))
        #expect(try S3Address(parsing: "s3://my.bucket-1/cat") == S3Address(bucket: "my.bucket-1", prefix: "cat"))
        #expect(try S3Address(parsing: "s3://abc/x") == S3Address(bucket: "abc", prefix: "x"))
        #expect(try S3Address(parsing: "s3://" + String(repeating: "a", count: 63)).bucket.count == 63)
        // Keys may hold what catalog paths never do: spaces, unicode, '%', dots inside names.
        #expect(
            try S3Address(parsing: "s3://bucket/my catalogs/données/%2e%2e/v1.2")
                == S3Address(bucket: "bucket", prefix: "my catalogs/données/%2e%2e/v1.2"))
        #expect(try S3Address(parsing: "s3://bucket/a/b").description == "s3://bucket/a/b")
        #expect(try S3Address(parsing: "s3://bucket/").description == "s3://bucket")
    }

    @Test func mapsCatalogPathsToKeysAndBack() {
        let prefixed = S3Address(bucket: "bucket", prefix: "a/cat")
        #expect(prefixed.key("catalog.json") == "a/cat/catalog.json")
        #expect(prefixed.key("objects/ab/cd/abcd.gz") == "a/cat/objects/ab/cd/abcd.gz")
        #expect(prefixed.path(ofKey: "a/cat/objects/ab/cd/abcd.gz") == "objects/ab/cd/abcd.gz")
        // A sibling prefix that merely starts alike is another catalog's.
        #expect(prefixed.path(ofKey: "a/catalog.json") == nil)
        #expect(prefixed.path(ofKey: "a/cat2/catalog.json") == nil)
        #expect(prefixed.path(ofKey: "b/cat/catalog.json") == nil)
        let root = S3Address(bucket: "bucket", prefix: "")
        #expect(root.key("catalog.json") == "catalog.json")
        #expect(root.path(ofKey: "x/y") == "x/y")
    }

    @Test(arguments: [
        // Not an s3:// address.
        "", "bucket/cat", "s3:/bucket", "s3:bucket", "S3://bucket", "http://bucket/cat", "file:///tmp/cat",
        // Bucket names S3 refuses: length, case, characters, first and last characters.
        "s3://", "s3:///cat", "s3://ab", "s3://" + String(repeating: "a", count: 64), "s3://Bucket", "s3://bucket_name",
        "s3://bucket name", "s3://-bucket", "s3://bucket-", "s3://.bucket", "s3://bucket.", "s3://bück", "s3://bucket:9000/cat",
        "s3://user@bucket/cat", "s3://bucket?x=1",
        // Prefixes that would climb out or mean another key than they say.
        "s3://bucket/..", "s3://bucket/../cat", "s3://bucket/a/../b", "s3://bucket/./cat", "s3://bucket/a/.",
        // Control characters.
        "s3://bucket/a\u{0}b", "s3://bucket/a\u{1}b", "s3://bucket/line\nbreak", "s3://bucket/tab\tx", "s3://bucket/del\u{7F}",
    ])
    func refuses(_ text: String) {
        #expect(throws: S3ConfigurationError.self, "'\(text)' was accepted") { try S3Address(parsing: text) }
    }

    @Test func namesWhatIsWrong() {
        #expect(throws: S3ConfigurationError.notAnS3Address("http://x")) {
            try S3Address(parsing: "http://x")
        }
        #expect(throws: S3ConfigurationError.invalidBucketName(bucket: "Bucket", address: "s3://Bucket/x")) {
            try S3Address(parsing: "s3://Bucket/x")
        }
        #expect(throws: S3ConfigurationError.invalidKeyPrefix(address: "s3://bucket/../x")) {
            try S3Address(parsing: "s3://bucket/../x")
        }
    }

    /// The registry opens `s3://` locations as S3 storages, and refuses bad ones as
    /// `parse` does.
    @Test func isRegisteredForS3Locations() throws {
        let environment = [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "eu-west-1",
            "AWS_CONFIG_FILE": "/nonexistent/config", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials",
        ]
        let registry = StorageRegistry.local.registeringS3(environment: environment, endpointURL: "http://127.0.0.1:9")
        let storage = try #require(try registry.catalogStorage("s3://bucket/a/cat") as? S3Storage)
        #expect(storage.address == S3Address(bucket: "bucket", prefix: "a/cat"))
        #expect(storage.location == "s3://bucket/a/cat")
        #expect(storage.properties.isRemote)
        #expect(storage.client.configuration.endpoint?.absoluteString == "http://127.0.0.1:9")
        #expect(storage.client.configuration.region == "eu-west-1")
        #expect(throws: S3ConfigurationError.invalidBucketName(bucket: "Bad_Bucket", address: "s3://Bad_Bucket/cat")) {
            try StorageRegistry.local.registeringS3(environment: environment).catalogStorage("s3://Bad_Bucket/cat")
        }
        #expect(throws: S3ConfigurationError.invalidEndpoint("ftp://x")) {
            try StorageRegistry.local.registeringS3(environment: environment, endpointURL: "ftp://x").catalogStorage("s3://bucket/cat")
        }
    }
}
