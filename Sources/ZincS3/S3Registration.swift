import Zinc

extension StorageRegistry {
    /// This registry with `s3://BUCKET/PREFIX` locations, configured from the
    /// environment and AWS files as the AWS CLI is (see `AWSConfiguration`).
    public func registeringS3(environment: [String: String]? = nil) -> StorageRegistry {
        registering(scheme: "s3") { location, options in
            let configuration =
                try environment.map { try AWSConfiguration.load(environment: $0, endpointOverride: options.endpointURL) }
                ?? AWSConfiguration.load(endpointOverride: options.endpointURL)
            return S3Storage(address: try S3Address(parsing: location), configuration: configuration)
        }
    }
}
