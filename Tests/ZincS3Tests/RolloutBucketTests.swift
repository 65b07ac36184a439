import Testing
import ZincTestSupport

/// A staged rollout published to an S3 bucket (moto) after each change, followed by 200
/// installs reading the bucket anonymously: each on the version its draw gives.
@Suite struct RolloutBucketTests {
    @Test func twoHundredInstallsFollowTheirDrawsFromABucket() throws {
        let server = try MotoServer.shared()
        let bucket = try server.makeBucket(publicRead: true)
        let dir = try TemporaryDirectory()
        try RolloutFleet.makeCatalog(in: dir)
        let publish = ["publish", "--catalog", "cat", "--to", "s3://\(bucket)/cat", "--quiet"]
        let publisher = RolloutFleet.publisher(in: dir, environment: server.environment)
        try publisher.run(publish)  // before the repos track it
        let fleet = try RolloutFleet(
            count: 200, catalogURL: server.url(bucket: bucket, prefix: "cat/"), in: dir, environment: server.environment)
        #expect(try fleet.walk { try fleet.run(publish) } == [])
    }
}
