import Zinc

/// Prints one JSON document on stdout for `--json` and the dump commands: indented,
/// keys sorted, so scripts and diffs see the same bytes for the same content.
func printJSON(_ value: JSONValue) {
    print(String(decoding: value.prettyEncoded(), as: UTF8.self), terminator: "")
}

/// One compact JSON document and a newline: a line of the Python tool's `--format json`.
func printJSONLine(_ value: JSONValue) {
    print(String(decoding: value.encoded(), as: UTF8.self))
}
