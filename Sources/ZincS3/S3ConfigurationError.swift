/// An S3 address or AWS setting that cannot be used, found before any request is made.
/// Each case holds the offending value; ``description`` words them. What a bucket
/// answers is a `ZincError.remote` instead.
public enum S3ConfigurationError: Error, Equatable, Sendable {
    /// `AWS_PROFILE` names a profile neither AWS file defines.
    case profileNotFound(String)
    /// An access key id without its secret access key.
    case missingSecretAccessKey
    /// A secret access key without its access key id.
    case missingAccessKeyID
    case invalidRegion(String)
    /// An endpoint that is not an `http://` or `https://` URL of a server.
    case invalidEndpoint(String)
    /// An AWS configuration or credentials file that is not UTF-8 text.
    case unreadableFile(String)
    /// A location that does not start with `s3://`.
    case notAnS3Address(String)
    case invalidBucketName(bucket: String, address: String)
    /// A key prefix holding `.`, `..` or control characters.
    case invalidKeyPrefix(address: String)
}

extension S3ConfigurationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .profileNotFound(let profile):
            return "the profile '\(profile)' (AWS_PROFILE) is in neither ~/.aws/credentials nor ~/.aws/config"
        case .missingSecretAccessKey:
            return "an access key id is set but no secret access key (AWS_SECRET_ACCESS_KEY)"
        case .missingAccessKeyID:
            return "a secret access key is set but no access key id (AWS_ACCESS_KEY_ID)"
        case .invalidRegion(let region):
            return "'\(region)' is not a region name"
        case .invalidEndpoint(let endpoint):
            return "the endpoint '\(endpoint)' is not an http:// or https:// URL of a server"
        case .unreadableFile(let path):
            return "cannot read '\(path)' as UTF-8 text"
        case .notAnS3Address(let text):
            return "'\(text)' is not an s3://BUCKET/PREFIX address"
        case .invalidBucketName(let bucket, let address):
            return "'\(bucket)' in '\(address)' is not a bucket name (3 to 63 lowercase letters, digits, '.' and '-')"
        case .invalidKeyPrefix(let address):
            return "'\(address)': the key prefix may not hold '.', '..' or control characters"
        }
    }
}
