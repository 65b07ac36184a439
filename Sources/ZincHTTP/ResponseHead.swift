/// The status and fields of a response, built from header lines as libcurl hands them
/// over. A redirect's or an interim response's head is replaced by the next one's.
package struct ResponseHead: Sendable {
    package private(set) var status = 0
    private var fields = [String: String]()

    package init() {}

    /// A head that arrived whole (URLSession's), with the same checks as `take`.
    package init(status: Int, fields: [String: String]) {
        self.status = status
        for (name, value) in fields { add(name, value.trimmingWhitespace()) }
    }

    /// The value of a field, by case-insensitive name.
    package subscript(name: String) -> String? { fields[name.lowercased()] }

    /// Takes one line: a status line starts a new head, `Name: value` adds a field.
    package mutating func take(_ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace()
        if text.hasPrefix("HTTP/") {  // "HTTP/1.1 206 Partial Content", "HTTP/2 200"
            let parts = text.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            fields = [:]
        } else if let colon = text.firstIndex(of: ":") {
            add(text[..<colon], text[text.index(after: colon)...].trimmingWhitespace())
        }
    }

    private mutating func add(_ name: some StringProtocol, _ value: some StringProtocol) {
        // Values (ETags) may be sent back in a request header later: no control characters.
        if !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            fields[name.lowercased()] = String(value)
        }
    }

    /// `Content-Range`, when it is valid.
    package var contentRange: ContentRange? { self["content-range"].flatMap(ContentRange.init) }

    /// `Content-Length`, when it is a valid non-negative number.
    package var contentLength: Int64? {
        self["content-length"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
