import Zinc

/// Prints one JSON document on stdout for `--json` and the dump commands: indented,
/// keys sorted, so scripts and diffs see the same bytes for the same content. Every
/// report is an `Encodable` value, turned into a `JSONValue` by the one encoder.
func printJSON(_ report: some Encodable) throws {
    print(String(decoding: try JSONValueEncoder().encode(report).prettyEncoded(), as: UTF8.self), terminator: "")
}

/// One compact JSON document and a newline: a line of the Python tool's `--format json`.
func printJSONLine(_ report: some Encodable) throws {
    print(String(decoding: try JSONValueEncoder().encode(report).encoded(), as: UTF8.self))
}
