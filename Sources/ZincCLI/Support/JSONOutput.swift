import Zinc

/// Prints one JSON document on stdout for `--json` and the dump commands: indented,
/// keys sorted, so scripts and diffs see the same bytes for the same content. Every
/// report is an `Encodable` value, turned into a `JSONValue` by the one encoder.
func printJSON(_ report: some Encodable) throws {
    print(String(decoding: try JSONValueEncoder(keys: .snakeCase).encode(report).prettyEncoded(), as: UTF8.self), terminator: "")
}

/// One compact JSON document and a newline: a line of the Python tool's `--format json`.
func printJSONLine(_ report: some Encodable) throws {
    print(String(decoding: try JSONValueEncoder(keys: .snakeCase).encode(report).encoded(), as: UTF8.self))
}

/// Prints `report` (an object) with one more member, `key`: a list whose items `items`
/// hands on one at a time, each printed as it comes, so that a list of 100,000 installs
/// is never held. The bytes are those `printJSON` prints for the whole document.
func printJSON<Item: Encodable>(
    _ report: some Encodable, streaming key: String, items: ((Item) throws -> Void) throws -> Void
) throws {
    let encoder = JSONValueEncoder(keys: .snakeCase)
    guard case .object(let members) = try encoder.encode(report) else { preconditionFailure("a report is an object") }
    /// A value as the indented writer puts it `levels` deep: its lines after the first
    /// indented (a string's newline is escaped, so every "\n" is the writer's).
    func nested(_ value: JSONValue, levels: Int) -> String {
        String(decoding: value.prettyEncoded().dropLast(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: "\n" + String(repeating: "  ", count: levels))
    }
    let keys = (Array(members.keys) + [key]).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    print("{", terminator: "")
    for (index, name) in keys.enumerated() {
        print((index > 0 ? "," : "") + "\n  " + String(decoding: JSONValue.string(name).encoded(), as: UTF8.self) + ": ", terminator: "")
        guard name == key else {
            print(nested(members[name]!, levels: 1), terminator: "")
            continue
        }
        print("[", terminator: "")
        var empty = true
        try items { item in
            print((empty ? "" : ",") + "\n    " + nested(try encoder.encode(item), levels: 2), terminator: "")
            empty = false
        }
        print(empty ? "]" : "\n  ]", terminator: "")
    }
    print("\n}")
}
