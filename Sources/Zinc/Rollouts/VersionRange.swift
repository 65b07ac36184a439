/// A range of app versions a rollout is limited to: comparisons joined by commas, all of
/// which must hold, such as `>=2.1,<3`. A version is one to four dot-separated numbers
/// compared numerically, missing numbers counting as 0 (`2.1` is `2.1.0.0`).
public struct VersionRange: Equatable, Sendable, CustomStringConvertible {
    public enum Comparison: String, CaseIterable, Sendable {
        // Two-character operators first, so that `>=` is not read as `>` and `=2`.
        case atLeast = ">="
        case atMost = "<="
        case above = ">"
        case below = "<"
        case exactly = "="
    }

    /// An app version: its numbers, padded to four.
    public struct AppVersion: Comparable, Sendable, CustomStringConvertible {
        let numbers: [Int]
        public let description: String

        /// Nil unless `text` is one to four dot-separated numbers of at most 9 digits each.
        public init?(_ text: some StringProtocol) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...4).contains(parts.count) else { return nil }
            var numbers = [Int]()
            for part in parts {
                guard (1...9).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part)
                else { return nil }
                numbers.append(number)
            }
            self.numbers = numbers + Array(repeating: 0, count: 4 - numbers.count)
            description = String(text)
        }

        public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.numbers.lexicographicallyPrecedes(rhs.numbers) }
        public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.numbers == rhs.numbers }
    }

    public let terms: [(comparison: Comparison, version: AppVersion)]

    /// Nil unless every comma-separated term is an operator and a version; at most 8 terms.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...8).contains(parts.count) else { return nil }
        var terms = [(comparison: Comparison, version: AppVersion)]()
        for part in parts {
            guard let comparison = Comparison.allCases.first(where: { part.hasPrefix($0.rawValue) }),
                let version = AppVersion(part.dropFirst(comparison.rawValue.count))
            else { return nil }
            terms.append((comparison, version))
        }
        self.terms = terms
    }

    public func contains(_ version: AppVersion) -> Bool {
        terms.allSatisfy { term in
            switch term.comparison {
            case .atLeast: version >= term.version
            case .atMost: version <= term.version
            case .above: version > term.version
            case .below: version < term.version
            case .exactly: version == term.version
            }
        }
    }

    public var description: String {
        terms.map { $0.comparison.rawValue + $0.version.description }.joined(separator: ",")
    }

    public static func == (lhs: VersionRange, rhs: VersionRange) -> Bool { lhs.description == rhs.description }
}
