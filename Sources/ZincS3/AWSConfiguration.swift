import Zinc
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An access key pair (and session token) as the AWS CLI finds it. Never printed: its
/// description hides the secrets.
struct AWSCredentials: Sendable, CustomStringConvertible {
    let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?

    var description: String { "credentials for access key \(accessKeyID.prefix(4))…" }
}

/// Where and as whom to reach S3, read the way the AWS CLI reads it: the environment
/// first (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
/// `AWS_REGION`/`AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL`), then the profile
/// (`AWS_PROFILE`, else `default`) of `~/.aws/credentials` and `~/.aws/config`
/// (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`).
public struct AWSConfiguration: Sendable {
    /// nil: anonymous requests, which read public buckets only.
    let credentials: AWSCredentials?
    public let region: String
    /// A custom endpoint (MinIO, R2, a local server): requests go there path-style.
    public let endpoint: URL?

    /// The configuration for this process; `endpointOverride` is `--endpoint-url`.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        endpointOverride: String? = nil
    ) throws -> AWSConfiguration {
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        let profile = environment["AWS_PROFILE"] ?? "default"
        let credentialsFile = try INIFile.load(environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials")
        let configFile = try INIFile.load(environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config")
        // ~/.aws/config names sections "profile NAME", except "default".
        let configSection = configFile?.sections[profile == "default" ? "default" : "profile \(profile)"] ?? [:]
        let fileCredentials = credentialsFile?.sections[profile] ?? [:]
        func setting(_ variable: String, _ key: String) -> String? {
            if let value = environment[variable], !value.isEmpty { return value }
            return fileCredentials[key] ?? configSection[key]
        }
        if environment["AWS_PROFILE"] != nil, credentialsFile?.sections[profile] == nil, configFile?.sections["profile \(profile)"] == nil,
            environment["AWS_ACCESS_KEY_ID"] == nil
        {
            throw S3ConfigurationError.profileNotFound(profile)
        }
        // Keys in the environment are one set, as the AWS CLI takes them: never completed
        // with a secret or a session token of the profile, which belong to another key.
        func credential(_ variable: String, _ key: String) -> String? {
            let fromEnvironment = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"].contains { !(environment[$0] ?? "").isEmpty }
            return fromEnvironment ? environment[variable].flatMap { $0.isEmpty ? nil : $0 } : setting(variable, key)
        }
        var credentials: AWSCredentials?
        switch (credential("AWS_ACCESS_KEY_ID", "aws_access_key_id"), credential("AWS_SECRET_ACCESS_KEY", "aws_secret_access_key")) {
        case (let id?, let secret?):
            credentials = AWSCredentials(
                accessKeyID: id, secretAccessKey: secret,
                sessionToken: credential("AWS_SESSION_TOKEN", "aws_session_token"))
        case (nil, nil):
            credentials = nil
        case (_?, nil):
            throw S3ConfigurationError.missingSecretAccessKey
        case (nil, _?):
            throw S3ConfigurationError.missingAccessKeyID
        }
        let region =
            environment["AWS_REGION"].flatMap { $0.isEmpty ? nil : $0 }
            ?? setting("AWS_DEFAULT_REGION", "region") ?? "us-east-1"
        guard !region.isEmpty, region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw S3ConfigurationError.invalidRegion(region)
        }
        var endpoint: URL?
        if let text = endpointOverride ?? setting("AWS_ENDPOINT_URL", "endpoint_url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil, url.query == nil, url.user == nil
            else {
                throw S3ConfigurationError.invalidEndpoint(text)
            }
            endpoint = url
        }
        return AWSConfiguration(credentials: credentials, region: region, endpoint: endpoint)
    }
}

/// The AWS CLI's INI files: `[section]` headers and `key = value` lines.
private struct INIFile {
    var sections = [String: [String: String]]()

    /// nil when the file does not exist.
    static func load(_ path: String) throws -> INIFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Read until end of file rather than by its size: /dev/null is the usual way to keep
        // a tool from the user's files. A UTF-8 byte order mark (Windows editors) is dropped.
        guard let bytes = try? PosixFile.open(path).readToEnd(), let text = String(bytes: bytes, encoding: .utf8) else {
            throw S3ConfigurationError.unreadableFile(path)
        }
        var file = INIFile()
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = String(line.dropFirst().dropLast().trimmingWhitespace())
                current = name
                if file.sections[name] == nil { file.sections[name] = [:] }
            } else if let current, let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingWhitespace().lowercased()
                file.sections[current]?[key] = String(line[line.index(after: equals)...].trimmingWhitespace())
            }
        }
        return file
    }
}
