import Zinc

extension StorageRegistry {
    /// This registry with `s3://BUCKET/PREFIX` locations, configured from the
    /// environment and AWS files as the AWS CLI is (see `AWSConfiguration`), or the
    /// process's when `environment` is nil; `endpointURL` (`--endpoint-url`) overrides
    /// the endpoint they name.
    public func registeringS3(environment: [String: String]? = nil, endpointURL: String? = nil) -> StorageRegistry {
        registering(scheme: "s3") { location in
            let configuration =
                try environment.map { try AWSConfiguration.load(environment: $0, endpointOverride: endpointURL) }
                ?? AWSConfiguration.load(endpointOverride: endpointURL)
            return S3Storage(address: try S3Address(parsing: location), configuration: configuration)
        }
    }
}
