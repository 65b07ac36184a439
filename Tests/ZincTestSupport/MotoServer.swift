import Foundation
import Zinc
import ZincCurl
import ZincS3

#if canImport(Glibc)
import Glibc
#endif

/// A real S3 API server on loopback for the tests: moto's (`pip install "moto[server]"`,
/// which `make test` does), run as `moto_server -H 127.0.0.1 -p PORT`. One shared
/// server per test process, each test with a bucket (or a prefix) of its own.
///
/// The server never outlives the tests (it is a `TetheredProcess`), and the shared ones
/// are stopped before this process exits, so that no server or log is left behind.
public final class MotoServer: @unchecked Sendable {
    public let port: Int
    /// Whether every request must be signed by a key the server knows (it knows none).
    public let enforcesAuthentication: Bool
    private let process: TetheredProcess
    private let http = HTTPClient()

    /// `http://127.0.0.1:PORT`, the `--endpoint-url` of the server.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// A bucket's address for anonymous HTTP clients (path style).
    public func url(bucket: String, prefix: String = "") -> String {
        prefix.isEmpty ? "\(endpoint)/\(bucket)" : "\(endpoint)/\(bucket)/\(prefix)"
    }

    /// The environment of a `zinc` process using this server, and of `configuration()`:
    /// moto accepts any key pair. The user's AWS files are kept out of it.
    public var environment: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_SESSION_TOKEN": "", "AWS_REGION": "us-east-1",
            "AWS_ENDPOINT_URL": endpoint, "AWS_CONFIG_FILE": "/nonexistent/zinc-tests/aws-config",
            "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/zinc-tests/aws-credentials",
        ]
    }

    /// The configuration of `environment`, with other credentials if given.
    public func configuration(accessKeyID: String = "test", secretAccessKey: String = "test") throws -> AWSConfiguration {
        try AWSConfiguration.load(
            environment: environment.merging([
                "AWS_ACCESS_KEY_ID": accessKeyID,
                "AWS_SECRET_ACCESS_KEY": secretAccessKey,
            ]) { $1 })
    }

    // MARK: Shared servers

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServers = [Bool: Result<MotoServer, TestServerError>]()

    /// The server shared by this process's tests, started on first use.
    public static func shared() throws -> MotoServer {
        try shared(enforcingAuthentication: false)
    }

    /// A second shared server, started with `INITIAL_NO_AUTH_ACTION_COUNT=0`: moto then
    /// checks every request's signature against the IAM access keys it holds, which are
    /// none, so every signed request fails with `InvalidAccessKeyId`.
    public static func sharedEnforcingAuthentication() throws -> MotoServer {
        try shared(enforcingAuthentication: true)
    }

    private static func shared(enforcingAuthentication: Bool) throws -> MotoServer {
        try sharedLock.withLock {
            if let server = sharedServers[enforcingAuthentication] { return try server.get() }
            let result: Result<MotoServer, TestServerError>
            do {
                result = .success(try MotoServer(enforcingAuthentication: enforcingAuthentication))
            } catch let error as TestServerError {
                result = .failure(error)  // fail every later test at once, not after another wait
            }
            if sharedServers.isEmpty { atexit { MotoServer.stopShared() } }
            sharedServers[enforcingAuthentication] = result
            return try result.get()
        }
    }

    /// Stops the shared servers and waits for them: at exit, so that `make test` ends
    /// with nothing running and nothing in the temporary folder.
    private static func stopShared() {
        let servers = sharedLock.withLock { sharedServers.values.compactMap { try? $0.get() } }
        for server in servers { server.stop() }
    }

    // MARK: Life

    /// Starts a server of its own, stopped when the value goes away (or by `stop()`).
    public init(enforcingAuthentication: Bool = false) throws {
        guard let executable = Self.find("moto_server") else {
            throw TestServerError(
                "moto_server is not on PATH: the S3 tests need moto's S3 server; install it with "
                    + "pip install \"moto[server]\" (make test does)")
        }
        enforcesAuthentication = enforcingAuthentication
        port = try Self.freePort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("zinc-moto-\(getpid())-\(port).log").path
        guard FileManager.default.createFile(atPath: log, contents: nil), let output = FileHandle(forWritingAtPath: log) else {
            throw TestServerError("cannot create \(log)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = enforcingAuthentication ? "0" : nil
        process = try TetheredProcess(
            executable, ["-H", "127.0.0.1", "-p", String(port)], environment: environment,
            output: output, removing: log)
        try? output.close()

        // Ready when it answers anything at all over HTTP (with authentication enforced,
        // an unsigned request gets an error, which is an answer too).
        let deadline = Date().addingTimeInterval(60)
        while true {
            if let answer = try? http.collect(HTTPRequest(.get, endpoint + "/"), limit: 1 << 20), answer.failure == nil,
                answer.head.status > 0
            {
                break
            }
            guard Date() < deadline, process.shell.isRunning else {
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                stop()
                throw TestServerError("moto_server did not answer on port \(port) within 60 s; its output:\n\(output.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit { stop() }

    /// Stops the server and waits until it is gone.
    public func stop() {
        process.stop()
    }

    // MARK: Buckets

    /// A new, empty bucket with a unique name (created with an unsigned PUT, which moto
    /// accepts unless it enforces authentication); `publicRead` lets anonymous clients
    /// GET its objects.
    public func makeBucket(publicRead: Bool = false) throws -> String {
        let name = "zinc-test-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(24)
        try expectSuccess(HTTPRequest(.put, "\(endpoint)/\(name)"))
        if publicRead { try allowPublicRead(bucket: name) }
        return name
    }

    /// A bucket policy letting anyone GET the bucket's objects, as a bucket served to
    /// clients (or behind a CDN) has.
    public func allowPublicRead(bucket: String) throws {
        let policy =
            #"{"Version":"2012-10-17","Statement":[{"Sid":"PublicRead","Effect":"Allow","Principal":"*","#
            + #""Action":"s3:GetObject","Resource":"arn:aws:s3:::\#(bucket)/*"}]}"#
        // moto reads a form-encoded body as a form: the policy needs a JSON type.
        try expectSuccess(
            HTTPRequest(
                .put, "\(endpoint)/\(bucket)?policy", headers: ["Content-Type: application/json"],
                body: .bytes(Array(policy.utf8))))
    }

    /// An S3 storage for `s3://BUCKET/PREFIX` on this server.
    public func storage(
        bucket: String, prefix: String = "cat", tuning: S3Tuning = .standard,
        lockPolicy: LockPolicy = .standard
    ) throws -> S3Storage {
        S3Storage(
            address: S3Address(bucket: bucket, prefix: prefix), configuration: try configuration(),
            tuning: tuning, lockPolicy: lockPolicy)
    }

    /// The keys of a bucket below `prefix` (a folder: `cat` lists `cat/…`), sorted,
    /// from signed listings.
    public func keys(bucket: String, prefix: String = "") throws -> [String] {
        let paths = try storage(bucket: bucket, prefix: prefix).list("")
        return paths.map { prefix.isEmpty ? $0 : prefix + "/" + $0 }
    }

    /// An object's bytes, or nil when there is none.
    public func object(bucket: String, key: String) throws -> [UInt8]? {
        try storage(bucket: bucket, prefix: "").read(key)
    }

    private func expectSuccess(_ request: HTTPRequest) throws {
        let response: CollectedResponse
        do {
            response = try http.collect(request, limit: 1 << 20)
        } catch {
            throw TestServerError("\(request.method.rawValue) \(request.url): \(error.reason)")
        }
        guard response.failure == nil, (200...299).contains(response.head.status) else {
            let body = String(decoding: response.body.prefix(500), as: UTF8.self)
            throw TestServerError(
                "\(request.method.rawValue) \(request.url): \(response.failure ?? "HTTP \(response.head.status) \(body)")")
        }
    }

    // MARK: Helpers

    private static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A loopback port nothing listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestServerError("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A test server that could not be started or refused its setup.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
