import Testing
import ZincS3

/// The words of each S3 setting error, as `zinc: error: …` prints them.
@Suite struct S3ConfigurationErrorTests {
    @Test(arguments: [
        (
            S3ConfigurationError.profileNotFound("nobody"),
            "the profile 'nobody' (AWS_PROFILE) is in neither ~/.aws/credentials nor ~/.aws/config"
        ),
        (.missingSecretAccessKey, "an access key id is set but no secret access key (AWS_SECRET_ACCESS_KEY)"),
        (.missingAccessKeyID, "a secret access key is set but no access key id (AWS_ACCESS_KEY_ID)"),
        (.invalidRegion("us east 1"), "'us east 1' is not a region name"),
        (.invalidEndpoint("ftp://x"), "the endpoint 'ftp://x' is not an http:// or https:// URL of a server"),
        (.unreadableFile("/k"), "cannot read '/k' as UTF-8 text"),
        (.notAnS3Address("http://x"), "'http://x' is not an s3://BUCKET/PREFIX address"),
        (
            .invalidBucketName(bucket: "Bucket", address: "s3://Bucket/x"),
            "'Bucket' in 's3://Bucket/x' is not a bucket name (3 to 63 lowercase letters, digits, '.' and '-')"
        ),
        (
            .invalidKeyPrefix(address: "s3://bucket/../x"),
            "'s3://bucket/../x': the key prefix may not hold '.', '..' or control characters"
        ),
    ])
    func describes(_ error: S3ConfigurationError, _ message: String) {
        #expect(error.description == message)
    }
}
