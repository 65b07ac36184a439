import Zinc
import ZincClient
import ZincCurl

/// A catalog in an S3 bucket (`s3://BUCKET/PREFIX`), read by a client repo with GETs
/// signed by the AWS configuration the publisher uses (environment, then ~/.aws files),
/// or anonymous ones where there are no credentials (a public bucket). Bodies stream
/// into the caller's sink through `FetchTransfer`, as over plain HTTP. S3 answers one
/// range per request, so a request for several ranges asks for the first only: the
/// answer is then a single part, and the caller asks again for the rest (and remembers
/// to ask this source one range at a time).
///
/// It lives here, not in ZincClient, so that an app embedding the client links no S3 code.
public final class S3CatalogSource: CatalogSource {
    public let url: String
    private let client: S3Client

    public init(url: String, configuration: AWSConfiguration) throws {
        self.url = url
        client = S3Client(address: try S3Address(parsing: url), configuration: configuration)
    }

    public func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        let location = location(of: request.path)
        let transfer = FetchTransfer(url: location, request: request, sink: sink)
        var headers = [String: String]()
        if let validator = transfer.validator { headers["if-none-match"] = validator }
        let s3 = S3Request(
            .get, key: client.address.key(request.path), operation: "GET \(request.path)", headers: headers,
            range: request.ranges.first)
        var get = client.signedRequest(s3)
        get.patience = request.patience
        let stop = TransferStop()
        get.stop = stop
        do {
            return try transfer.perform(stop: stop.fire, stopped: { stop.fired }) {
                try client.stream(get, receiver: HTTPReceiver(header: transfer.header, body: transfer.receive))
            }
        } catch let error as CurlError {
            throw ClientError.transport(url: location, reason: error.reason, received: 0)
        } catch let error as ClientError {
            // S3 says why (a key it does not know, a bucket in another region): say it too.
            guard let url = error.url, let status = error.httpStatus, error.reason == nil else { throw error }
            let answer = S3Response(head: transfer.responseHead, body: transfer.errorText)
            throw ClientError.httpStatus(url: url, status: status, reason: S3Client.explanation(of: answer))
        }
    }
}

/// The source for a tracked URL: `s3://` from a bucket (with the AWS configuration of
/// this process), anything else as ZincClient's `makeCatalogSource` makes it. What the
/// `zinc` command syncs with.
public func makeCatalogSourceWithS3(_ url: String) throws -> CatalogSource {
    guard url.lowercased().hasPrefix("s3://") else { return try makeCatalogSource(url) }
    return try S3CatalogSource(url: url, configuration: AWSConfiguration.load())
}
