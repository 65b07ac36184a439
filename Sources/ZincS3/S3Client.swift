import Zinc
import ZincCurl
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Signed requests to one bucket, from any number of threads, with retries. It speaks
/// HTTP and S3's error format; what the requests mean is `S3Storage`'s business.
final class S3Client: Sendable {
    let address: S3Address
    let configuration: AWSConfiguration
    let retry: RetryPolicy
    private let http = HTTPClient()

    init(address: S3Address, configuration: AWSConfiguration, retry: RetryPolicy = .standard) {
        self.address = address
        self.configuration = configuration
        self.retry = retry
    }

    /// The largest answer collected in memory: listings of a thousand keys are far smaller.
    static let answerLimit = 16 << 20

    /// Performs `request` and returns the server's final answer, whatever its status.
    /// Throttling, server errors and network failures are retried with backoff as
    /// `request.retry` allows; a network failure that is not retried throws.
    func send(_ request: S3Request, limit: Int = S3Client.answerLimit) throws -> S3Response {
        var attempt = 0
        while true {
            attempt += 1
            let response: CollectedResponse
            do {
                response = try http.collect(httpRequest(for: request), limit: limit)
            } catch {
                throw ZincError.remote(location: address.description, reason: error.reason)
            }
            let canRetry = attempt < retry.attempts
            if let failure = response.failure {
                // Only a request that may safely run twice is resent after the network
                // lost it: it may have reached the server.
                if canRetry, request.retry == .always {
                    retry.wait(beforeAttempt: attempt + 1)
                    continue
                }
                throw ZincError.remote(
                    location: address.description,
                    reason: "\(request.operation): \(failure)")
            }
            let status = response.head.status
            if canRetry,
                RetryPolicy.refusedStatuses.contains(status) || (request.retry == .always && RetryPolicy.failedStatuses.contains(status))
            {
                retry.wait(beforeAttempt: attempt + 1)
                continue
            }
            return S3Response(head: response.head, body: response.body)
        }
    }

    /// The error for an answer the caller did not expect: S3's code and message, the
    /// operation and the status. Credentials appear nowhere in it.
    func failure(_ response: S3Response, of request: S3Request) -> ZincError {
        let status = response.head.status
        var reason = "\(request.operation) failed with HTTP \(status)"
        if let code = Self.errorCode(of: response) {
            reason = "\(request.operation): \(code), HTTP \(status)"
        }
        if let region = Self.bucketRegion(of: response) { reason += "; \(region)" }
        return ZincError.remote(location: address.description, reason: reason)
    }

    /// What S3 says of an answer with an error status, for a client: its code and
    /// message, and the bucket's region where a request went to another; nil when the
    /// answer says nothing of it.
    static func explanation(of response: S3Response) -> String? {
        let parts = [errorCode(of: response), bucketRegion(of: response)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// S3's error code, with its message when it has one (`InvalidAccessKeyId (The AWS
    /// Access Key Id you provided does not exist in our records.)`).
    private static func errorCode(of response: S3Response) -> String? {
        guard let error = XMLElement.parse(response.body), error.name == "Error", let code = error.value("Code") else {
            return codes[response.status]
        }
        guard let message = error.value("Message"), !message.isEmpty else { return code }
        return "\(code) (\(message))"
    }

    private static func bucketRegion(of response: S3Response) -> String? {
        guard response.status == 301 || response.status == 400, let region = response.head["x-amz-bucket-region"] else {
            return nil
        }
        return "the bucket is in region \(region) (set AWS_REGION)"
    }

    /// Whether the answer says the key does not exist (and not that the bucket does not).
    func isMissingKey(_ response: S3Response) -> Bool {
        guard response.status == 404 else { return false }
        return XMLElement.parse(response.body)?.value("Code") != "NoSuchBucket"
    }

    /// S3's codes for answers without a body (HEAD).
    private static let codes = [
        403: "AccessDenied", 404: "NotFound", 412: "PreconditionFailed", 500: "InternalError",
        503: "ServiceUnavailable",
    ]

    /// `request` signed, for a transfer streamed by the caller (`stream`).
    func signedRequest(_ request: S3Request) -> HTTPRequest { httpRequest(for: request) }

    /// Performs a signed request once, handing the head and body to `receiver` as they
    /// arrive (the client's downloads: no retry here, the client's source chain decides);
    /// nil on success, otherwise libcurl's message.
    func stream(_ request: HTTPRequest, receiver: HTTPReceiver) throws(CurlError) -> String? {
        try http.perform(request, receiver: receiver)
    }

    private func httpRequest(for request: S3Request) -> HTTPRequest {
        let endpoint = self.endpoint
        var encodedPath = endpoint.basePath
        if endpoint.pathStyle { encodedPath += "/" + address.bucket }
        if let key = request.key { encodedPath += "/" + SignatureV4.encode(key, keepSlash: true) }
        if encodedPath.isEmpty { encodedPath = "/" }
        let query = request.query.map { "\(SignatureV4.encode($0.0, keepSlash: false))=\(SignatureV4.encode($0.1, keepSlash: false))" }
            .joined(separator: "&")
        var headers = request.headers
        if let credentials = configuration.credentials {
            let signer = SignatureV4(credentials: credentials, region: configuration.region)
            let payloadHash = request.body == nil ? SignatureV4.emptyPayloadHash : SignatureV4.unsignedPayload
            let added = signer.sign(
                method: request.method.rawValue, host: endpoint.host, encodedPath: encodedPath,
                query: request.query, headers: request.headers, payloadHash: payloadHash, date: Date())
            headers.merge(added) { _, signed in signed }
        }
        let url = endpoint.scheme + "://" + endpoint.host + encodedPath + (query.isEmpty ? "" : "?" + query)
        return HTTPRequest(
            request.method, url, headers: headers.map { "\($0.key): \($0.value)" }, ranges: request.range.map { [$0] } ?? [],
            body: request.body, followRedirects: false)
    }

    private struct Endpoint {
        let scheme: String
        /// `host` or `host:port`, as the Host header carries it.
        let host: String
        let basePath: String
        let pathStyle: Bool
    }

    /// A custom endpoint gets path-style requests (`http://host:port/bucket/key`); AWS
    /// gets virtual-hosted ones, except for bucket names with dots, which TLS
    /// certificates for `*.s3.amazonaws.com` do not cover.
    private var endpoint: Endpoint {
        if let url = configuration.endpoint {
            let host = (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
            var base = url.path
            while base.hasSuffix("/") { base.removeLast() }
            return Endpoint(scheme: url.scheme?.lowercased() ?? "https", host: host, basePath: base, pathStyle: true)
        }
        let region = configuration.region
        if address.bucket.contains(".") {
            return Endpoint(scheme: "https", host: "s3.\(region).amazonaws.com", basePath: "", pathStyle: true)
        }
        return Endpoint(scheme: "https", host: "\(address.bucket).s3.\(region).amazonaws.com", basePath: "", pathStyle: false)
    }
}

/// One S3 operation before signing.
struct S3Request {
    var method: HTTPRequest.Method
    /// The object key; nil for requests on the bucket (listings).
    var key: String?
    var query: [(String, String)] = []
    /// Lowercase names; all of them are signed.
    var headers: [String: String] = [:]
    var body: RequestBody?
    var range: Range<Int64>?
    var retry: RetryMode = .always
    /// How the request is named in errors: `PUT catalog.json`.
    var operation: String

    init(
        _ method: HTTPRequest.Method, key: String?, operation: String, query: [(String, String)] = [],
        headers: [String: String] = [:], body: RequestBody? = nil, range: Range<Int64>? = nil, retry: RetryMode = .always
    ) {
        self.method = method
        self.key = key
        self.operation = operation
        self.query = query
        self.headers = headers
        self.body = body
        self.range = range
        self.retry = retry
    }
}

/// Which failures may be retried.
enum RetryMode {
    /// The request may safely run twice: network failures and server errors are retried.
    case always
    /// A conditional write: running it twice could report its own success as someone
    /// else's change, so only answers saying it was not done (429, 503) are retried.
    case whenRefused
}

struct S3Response {
    let head: ResponseHead
    let body: [UInt8]
    var status: Int { head.status }
}

/// How often and how patiently requests are retried.
struct RetryPolicy: Sendable {
    let attempts: Int
    let firstDelay: Duration

    static let standard = RetryPolicy(attempts: 5, firstDelay: .milliseconds(200))

    /// Throttling and unavailability: the server did not do the request.
    static let refusedStatuses: Set<Int> = [429, 503]
    /// Server errors after which the request may or may not have been done.
    static let failedStatuses: Set<Int> = [500, 502, 504]

    /// Exponential backoff with jitter: a crowd of clients does not retry in step.
    func wait(beforeAttempt attempt: Int) {
        let base = firstDelay * (1 << min(attempt - 2, 6))
        let jittered = base * Double.random(in: 0.5...1.0)
        sleepThread(for: jittered)
    }
}
