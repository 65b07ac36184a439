import Foundation
import Testing
import Zinc
import ZincClient
import ZincS3
import ZincTestSupport

/// A bucket's refusals as a client repo reports them: S3's own code and message, and
/// the bucket's region when a request went to another, so a log says what to fix.
@Suite struct S3SourceErrorTests {
    @Test func aBucketInAnotherRegionIsNamedWithS3sReason() throws {
        let dir = try TemporaryDirectory()
        let server = try HostileHTTPServer()
        defer { server.stop() }
        let message = "The authorization header is malformed; the region 'us-east-1' is wrong; expecting 'eu-west-1'"
        server.override("zinc-bucket/cat/catalog.json") { _ in
            HostileHTTPServer.response(
                status: "400 Bad Request", headers: ["Content-Type": "application/xml", "x-amz-bucket-region": "eu-west-1"],
                body: Array(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AuthorizationHeaderMalformed</Code><Message>\(message)</Message><RequestId>1</RequestId></Error>"
                        .utf8))
        }
        let configuration = try AWSConfiguration.load(
            environment: [
                "HOME": dir.path, "AWS_ACCESS_KEY_ID": "AKIAZINCTESTKEY", "AWS_SECRET_ACCESS_KEY": "secret",
                "AWS_REGION": "us-east-1",
            ],
            endpointOverride: server.url)
        let source = try S3CatalogSource(url: "s3://zinc-bucket/cat", configuration: configuration)
        let sink = try PosixFile.open(try dir.write("sink", ""), flags: O_WRONLY)
        let expected = ClientError.httpStatus(
            url: "s3://zinc-bucket/cat/catalog.json", status: 400,
            reason: "AuthorizationHeaderMalformed (\(message)); the bucket is in region eu-west-1 (set AWS_REGION)")
        #expect(throws: expected) { try source.fetch(FetchRequest("catalog.json"), into: sink) }
        #expect(
            expected.description
                == "s3://zinc-bucket/cat/catalog.json answered HTTP 400: AuthorizationHeaderMalformed (\(message)); "
                + "the bucket is in region eu-west-1 (set AWS_REGION)")
    }
}
