/// What an install must be to take a rollout's candidate, beside being drawn: every
/// condition set must hold. An install describes itself with attributes (`KEY=VALUE`,
/// given at `repo_init` or `sync`); `app-version` and `platform` are the two a condition
/// names by itself.
public struct RolloutConditions: Equatable, Sendable {
    public static let appVersionAttribute = "app-version"
    public static let platformAttribute = "platform"
    /// Of platforms, and of `only` pairs.
    public static let maxEach = 16

    public var appVersion: VersionRange?
    /// The install's platform is one of these; any platform when empty.
    public var platforms: [String]
    /// Attributes the install must have, with these values.
    public var only: [Attribute]

    public init(appVersion: VersionRange? = nil, platforms: [String] = [], only: [Attribute] = []) {
        self.appVersion = appVersion
        self.platforms = platforms
        self.only = only
    }

    /// The first condition `attributes` fails, described for `status`; nil when all hold.
    public func unmet(by attributes: [String: String]) -> String? {
        if let range = appVersion {
            guard let text = attributes[Self.appVersionAttribute] else {
                return "the rollout is limited to app versions \(range), and the install gives no '\(Self.appVersionAttribute)'"
            }
            guard let version = VersionRange.AppVersion(text), range.contains(version) else {
                return "app version \(text) is outside \(range)"
            }
        }
        if !platforms.isEmpty {
            let platform = attributes[Self.platformAttribute]
            guard let platform, platforms.contains(platform) else {
                return "platform \(platform ?? "(none given)") is not "
                    + platforms.joined(separator: " or ")
            }
        }
        for wanted in only where attributes[wanted.key] != wanted.value {
            return "the rollout is only for \(wanted), and the install has "
                + (attributes[wanted.key].map { "\(wanted.key)=\($0)" } ?? "no '\(wanted.key)'")
        }
        return nil
    }
}

/// One `KEY=VALUE` an install describes itself with, or a rollout requires. The key is 1 to
/// 64 ASCII letters, digits, `.`, `_` or `-`; the value 1 to 200 bytes of UTF-8 without
/// control characters.
public struct Attribute: Hashable, Sendable, CustomStringConvertible {
    public let key: String
    public let value: String

    public init(key: String, value: String) throws {
        guard (1...64).contains(key.utf8.count),
            key.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            })
        else {
            throw ZincError.invalidName(
                kind: "attribute key", value: key, reason: "it must be 1 to 64 ASCII letters, digits, '.', '_' or '-'")
        }
        try Self.validateValue(value, kind: "attribute value")
        self.key = key
        self.value = value
    }

    /// Reads `KEY=VALUE`, splitting at the first `=`.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw ZincError.invalidName(kind: "attribute", value: text, reason: "it must be KEY=VALUE")
        }
        try self.init(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    /// Refuses a value (an attribute's, a platform, an actor, a note) that is empty, longer
    /// than `maxBytes` or holds control characters.
    public static func validateValue(_ value: String, kind: String, maxBytes: Int = 200) throws {
        guard (1...maxBytes).contains(value.utf8.count),
            !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ZincError.invalidName(
                kind: kind, value: value, reason: "it must be 1 to \(maxBytes) bytes without control characters")
        }
    }

    public var description: String { "\(key)=\(value)" }
}
