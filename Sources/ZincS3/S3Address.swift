import Zinc

/// A catalog's place in object storage: `s3://BUCKET` or `s3://BUCKET/PREFIX`.
public struct S3Address: Equatable, Sendable, CustomStringConvertible {
    public let bucket: String
    /// The key prefix without leading or trailing `/`; empty for the bucket's root.
    public let prefix: String

    public init(bucket: String, prefix: String) {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Parses `s3://BUCKET[/PREFIX]`, refusing what S3 would refuse or misread.
    public init(parsing text: String) throws {
        guard text.hasPrefix("s3://") else { throw S3ConfigurationError.notAnS3Address(text) }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        // Bucket names: 3-63 lowercase letters, digits, dots and hyphens, starting and
        // ending with a letter or digit (S3's rules; R2 and MinIO share them).
        let allowed = bucket.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
        guard (3...63).contains(bucket.count), allowed, bucket.first != "." && bucket.first != "-",
            bucket.last != "." && bucket.last != "-"
        else {
            throw S3ConfigurationError.invalidBucketName(bucket: bucket, address: text)
        }
        let segments = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true)
        for segment in segments
        where segment == "." || segment == ".." || segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw S3ConfigurationError.invalidKeyPrefix(address: text)
        }
        self.init(bucket: bucket, prefix: segments.joined(separator: "/"))
    }

    /// The object key of a catalog-relative path.
    func key(_ path: String) -> String {
        prefix.isEmpty ? path : prefix + "/" + path
    }

    /// The catalog-relative path of an object key below the prefix; nil for other keys.
    func path(ofKey key: String) -> String? {
        if prefix.isEmpty { return key }
        guard key.hasPrefix(prefix + "/") else { return nil }
        return String(key.dropFirst(prefix.count + 1))
    }

    public var description: String {
        prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)"
    }
}
