#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A flavorspec: flavor name -> ordered rules `"+ PATTERN"` / `"- PATTERN"`. For each
/// file the first matching rule decides; no match includes the file. Patterns are
/// case-sensitive shell globs in which `*` also matches `/`.
public struct Flavorspec: Equatable, Sendable {
    /// One line of a flavor: `+ pattern` includes the paths it matches, `- pattern`
    /// excludes them.
    public struct Rule: Equatable, Sendable {
        public let include: Bool
        public let pattern: String
    }

    public let flavors: [String: [Rule]]

    public init(flavors: [String: [Rule]]) {
        self.flavors = flavors
    }

    /// Flavor names in a stable order (sorted), since JSON objects carry none.
    public var names: [String] { flavors.keys.sorted() }

    /// Reads a flavorspec document; `source` names it in errors.
    public static func parse(_ bytes: [UInt8], source: String) throws -> Flavorspec {
        func bad(_ reason: String) -> ZincError { .corruptFile(path: source, reason: "not a valid flavorspec: \(reason)") }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw bad("not JSON (\(error))") }
        guard let top = json.objectValue else { throw bad("expected an object of flavor name -> list of rules") }
        guard !top.isEmpty else { throw bad("it defines no flavor") }
        var flavors = [String: [Rule]]()
        for (name, value) in top {
            try Names.checked(in: source) { try Names.validateFlavorName(name) }
            guard let list = value.arrayValue else { throw bad("flavor '\(name)' is not a list of rules") }
            flavors[name] = try list.map { item in
                guard let text = item.stringValue else { throw bad("flavor '\(name)' has a rule that is not a string") }
                if text.hasPrefix("+ ") { return Rule(include: true, pattern: String(text.dropFirst(2))) }
                if text.hasPrefix("- ") { return Rule(include: false, pattern: String(text.dropFirst(2))) }
                throw bad("flavor '\(name)': rule '\(text)' does not start with '+ ' or '- '")
            }
        }
        return Flavorspec(flavors: flavors)
    }

    /// The flavorspec as the JSON document it was read from.
    public func encoded() -> [UInt8] {
        JSONValue.object(
            flavors.mapValues { rules in
                .array(rules.map { .string(($0.include ? "+ " : "- ") + $0.pattern) })
            }
        ).encoded()
    }

    /// The flavors that include `path`, in `names` order.
    public func flavors(for path: String) -> [String] {
        names.filter { name in
            for rule in flavors[name]! where Self.matches(rule.pattern, path) { return rule.include }
            return true
        }
    }

    static func matches(_ pattern: String, _ path: String) -> Bool {
        // No FNM_PATHNAME: '*' crosses '/'. FNM_NOESCAPE: '\' is literal, as in the Python tool.
        fnmatch(pattern, path, FNM_NOESCAPE) == 0
    }
}
