import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincS3

/// Where and as whom to reach S3, found as the AWS CLI finds it: the environment, then
/// the profile's sections of the credentials and config files.
@Suite struct AWSConfigurationTests {
    let dir: TemporaryDirectory
    /// Points at both files, nothing else.
    let files: [String: String]

    init() throws {
        dir = try TemporaryDirectory()
        try dir.write(
            "credentials",
            """
            # comments and blank lines are skipped
            [default]
            aws_access_key_id = FILEKEY
            aws_secret_access_key = file/secret+1

            [ci]
            aws_access_key_id=CIKEY
            aws_secret_access_key=ci-secret
            aws_session_token = ci-token

            [profile ci]
            aws_access_key_id = WRONGFORM
            aws_secret_access_key = wrong-form-secret

            """)
        try dir.write(
            "config",
            """
            [default]
            region = eu-west-1

            [ci]
            region = not-this-one-1

            [profile ci]
            region = ap-south-1
            endpoint_url = http://minio.local:9000

            ; only a region, its keys come from the environment
            [profile regional]
            region = sa-east-1

            """)
        files = ["AWS_SHARED_CREDENTIALS_FILE": dir.at("credentials"), "AWS_CONFIG_FILE": dir.at("config"), "HOME": dir.path]
    }

    func load(_ environment: [String: String] = [:], endpoint: String? = nil) throws -> AWSConfiguration {
        try AWSConfiguration.load(environment: files.merging(environment) { $1 }, endpointOverride: endpoint)
    }

    @Test func readsTheDefaultProfileFromTheFiles() throws {
        let configuration = try load()
        let credentials = try #require(configuration.credentials)
        #expect(credentials.accessKeyID == "FILEKEY" && credentials.secretAccessKey == "file/secret+1" && credentials.sessionToken == nil)
        #expect(configuration.region == "eu-west-1")
        #expect(configuration.endpoint == nil)
    }

    @Test func environmentVariablesWinOverFiles() throws {
        let configuration = try load([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
            "AWS_REGION": "ca-central-1", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        ])
        let credentials = try #require(configuration.credentials)
        #expect(
            credentials.accessKeyID == "ENVKEY" && credentials.secretAccessKey == "env-secret" && credentials.sessionToken == "env-token")
        #expect(configuration.region == "ca-central-1")
        #expect(configuration.endpoint?.absoluteString == "http://127.0.0.1:9000")
        // --endpoint-url wins over both.
        #expect(
            try load(["AWS_ENDPOINT_URL": "http://127.0.0.1:9000"], endpoint: "https://s3.example.com").endpoint?.absoluteString
                == "https://s3.example.com")
        // Empty variables count as unset.
        #expect(try load(["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": ""]).credentials?.accessKeyID == "FILEKEY")
    }

    /// A key pair from the environment is never completed from a profile: the profile's
    /// session token (or secret) belongs to the profile's key, and signing the
    /// environment's key with it fails on every request.
    @Test func environmentKeysAreNeverMixedWithTheProfiles() throws {
        let configuration = try load(["AWS_PROFILE": "ci", "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret"])
        #expect(configuration.credentials?.accessKeyID == "ENVKEY")
        #expect(configuration.credentials?.sessionToken == nil)
        // The profile still gives what the environment does not: region, endpoint.
        #expect(configuration.region == "ap-south-1" && configuration.endpoint?.absoluteString == "http://minio.local:9000")
        #expect(throws: S3ConfigurationError.missingSecretAccessKey) {
            try load(["AWS_ACCESS_KEY_ID": "ENVKEY"])
        }
        #expect(throws: S3ConfigurationError.missingAccessKeyID) {
            try load(["AWS_SECRET_ACCESS_KEY": "env-secret"])
        }
    }

    @Test func awsProfilePicksItsSectionInEachFile() throws {
        let configuration = try load(["AWS_PROFILE": "ci"])
        let credentials = try #require(configuration.credentials)
        // `[ci]` in the credentials file, `[profile ci]` in the config file; not the other forms.
        #expect(credentials.accessKeyID == "CIKEY" && credentials.secretAccessKey == "ci-secret" && credentials.sessionToken == "ci-token")
        #expect(configuration.region == "ap-south-1")
        #expect(configuration.endpoint?.absoluteString == "http://minio.local:9000")

        // A profile in the config file only: its region, and no credentials (anonymous).
        let regional = try load(["AWS_PROFILE": "regional"])
        #expect(regional.region == "sa-east-1" && regional.credentials == nil)

        #expect(throws: S3ConfigurationError.profileNotFound("nobody")) {
            try load(["AWS_PROFILE": "nobody"])
        }
    }

    @Test func regionComesFromAWSRegionThenAWSDefaultRegionThenTheConfigFile() throws {
        #expect(try load(["AWS_REGION": "us-west-2", "AWS_DEFAULT_REGION": "eu-central-1"]).region == "us-west-2")
        #expect(try load(["AWS_DEFAULT_REGION": "eu-central-1"]).region == "eu-central-1")
        #expect(try load().region == "eu-west-1")
        #expect(
            try AWSConfiguration.load(environment: [
                "AWS_CONFIG_FILE": "/nonexistent/c", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/k",
                "HOME": dir.path,
            ]).region == "us-east-1")
        #expect(throws: S3ConfigurationError.invalidRegion("us east 1")) { try load(["AWS_REGION": "us east 1"]) }
        #expect(throws: S3ConfigurationError.invalidRegion("eu-west-1/../x")) { try load(["AWS_REGION": "eu-west-1/../x"]) }
    }

    @Test func refusesEndpointsThatAreNotServers() throws {
        for bad in [
            "ftp://example.com", "not a url", "example.com:9000", "http://", "http://user:password@example.com",
            "http://example.com/?x=1", "file:///tmp",
        ] {
            #expect(throws: S3ConfigurationError.invalidEndpoint(bad), "\(bad)") {
                try load(endpoint: bad)
            }
            #expect(throws: S3ConfigurationError.invalidEndpoint(bad), "\(bad) in AWS_ENDPOINT_URL") { try load(["AWS_ENDPOINT_URL": bad]) }
        }
        #expect(try load(endpoint: "https://s3.example.com/base/").endpoint?.absoluteString == "https://s3.example.com/base/")
        #expect(try load(endpoint: "HTTP://127.0.0.1:9000").endpoint?.port == 9000)
    }

    @Test func noFilesMeansAnonymous() throws {
        let none = ["AWS_CONFIG_FILE": "/nonexistent/c", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/k", "HOME": dir.path]
        #expect(try AWSConfiguration.load(environment: none).credentials == nil)
        // /dev/null is the usual way to keep a tool from the user's files.
        let devNull = try AWSConfiguration.load(environment: [
            "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
            "HOME": dir.path,
        ])
        #expect(devNull.credentials == nil && devNull.region == "us-east-1")
    }

    @Test func findsTheFilesInHomeByDefault() throws {
        try dir.write("home/.aws/credentials", "[default]\naws_access_key_id = HOMEKEY\r\naws_secret_access_key = home-secret\r\n")
        try dir.write("home/.aws/config", "[default]\nregion = me-south-1\n")
        let configuration = try AWSConfiguration.load(environment: ["HOME": dir.at("home")])
        #expect(configuration.credentials?.accessKeyID == "HOMEKEY" && configuration.credentials?.secretAccessKey == "home-secret")
        #expect(configuration.region == "me-south-1")
    }

    @Test func aFileThatIsNotTextIsAnErrorNamingIt() throws {
        try dir.write("binary", [0x5B, 0xFF, 0xFE, 0x5D])
        #expect(throws: S3ConfigurationError.unreadableFile(dir.at("binary"))) {
            try load(["AWS_SHARED_CREDENTIALS_FILE": dir.at("binary")])
        }
    }

    /// Credentials printed anywhere (a log line, an error, a debugger's description)
    /// show the key's first characters at most, never the secret or the token.
    @Test func descriptionsNeverShowTheSecret() throws {
        let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", token = "FQoGZXIvYXdzEXAMPLETOKEN"
        let configuration = try load([
            "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_SESSION_TOKEN": token,
        ])
        let credentials = try #require(configuration.credentials)
        let printed = [
            "\(credentials)", String(describing: credentials), String(reflecting: credentials),
            "\(configuration)", String(reflecting: configuration), "\(configuration.credentials as Any)",
        ]
        for text in printed {
            #expect(!text.contains(secret) && !text.contains(token) && !text.contains("AKIAIOSFODNN7EXAMPLE"), "\(text)")
        }
        #expect("\(credentials)" == "credentials for access key AKIA…")
        // Nor do the errors about incomplete credentials.
        do {
            _ = try load(["AWS_SECRET_ACCESS_KEY": secret])
            Issue.record("a secret without a key id was accepted")
        } catch {
            #expect(!"\(error)".contains(secret))
        }
    }
}
