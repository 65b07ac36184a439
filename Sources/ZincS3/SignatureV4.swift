import Zinc
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// AWS Signature Version 4 for S3 requests (the `Authorization` header form).
struct SignatureV4: Sendable {
    let credentials: AWSCredentials
    let region: String

    /// The hash S3 is told to skip checking, for every body: hashing a body before
    /// sending it would cost a pass over each byte uploaded (a CPU-bound step on a
    /// catalog of gigabytes) or reading spooled files twice. TLS protects it in transit.
    static let unsignedPayload = "UNSIGNED-PAYLOAD"
    static let emptyPayloadHash = SHA256.digest([]).hex

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256`, the
    /// session token if any, and `Authorization`. Every header in `headers` (lowercase
    /// names) is signed along with `host`.
    func sign(
        method: String, host: String, encodedPath: String, query: [(String, String)],
        headers: [String: String], payloadHash: String, date: Date
    ) -> [String: String] {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        var signed = headers
        signed["host"] = host
        signed["x-amz-date"] = stamp
        signed["x-amz-content-sha256"] = payloadHash
        if let token = credentials.sessionToken { signed["x-amz-security-token"] = token }
        let names = signed.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(signed[$0]!.trimmingWhitespace())\n" }.joined()
        let encodedQuery: [(name: String, value: String)] = query.map { name, value in
            (Self.encode(name, keepSlash: false), Self.encode(value, keepSlash: false))
        }
        let sortedQuery = encodedQuery.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        let canonicalQuery = sortedQuery.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let signedNames = names.joined(separator: ";")
        let canonicalRequest = [method, encodedPath, canonicalQuery, canonicalHeaders, signedNames, payloadHash].joined(separator: "\n")
        let scope = "\(day)/\(region)/s3/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, SHA256.digest(Array(canonicalRequest.utf8)).hex]
            .joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, "s3", "aws4_request"] { key = HMACSHA256.authenticate(Array(part.utf8), key: key) }
        let signature = Hex.encode(HMACSHA256.authenticate(Array(stringToSign.utf8), key: key))
        signed.removeValue(forKey: "host")  // libcurl sends it from the URL
        for name in headers.keys { signed.removeValue(forKey: name) }
        signed["authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(signedNames), Signature=\(signature)"
        return signed
    }

    /// `20130524T000000Z`.
    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2) + digits(parts.tm_mday, 2) + "T"
            + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2) + digits(parts.tm_sec, 2) + "Z"
    }

    /// S3's URI encoding: every byte but `A-Za-z0-9-._~` (and `/` in paths) as `%XX`.
    static func encode(_ text: String, keepSlash: Bool) -> String {
        PercentEncoding.encode(text, keepSlash: keepSlash)
    }
}
