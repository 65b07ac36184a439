/// A `Content-Range: bytes first-last/complete` field (RFC 9110 §14.4), where `complete` may
/// be `*` (unknown). Parsed strictly, with overflow-checked numbers: it comes from a server,
/// and its positions say where the bytes that follow belong.
package struct ContentRange: Equatable, Sendable {
    /// The bytes the part or response carries.
    package let bytes: Range<Int64>
    /// The length of the whole file, when the server said.
    package let completeLength: Int64?

    package init?(_ field: some StringProtocol) {
        let text = field.trimmingWhitespace()
        guard text.count > 6, text.prefix(6).lowercased() == "bytes " else { return nil }
        let spec = text.dropFirst(6).trimmingWhitespace()
        guard let dash = spec.firstIndex(of: "-"), let slash = spec.firstIndex(of: "/"), dash < slash,
            let first = Self.number(spec[..<dash]),
            let last = Self.number(spec[spec.index(after: dash)..<slash]), last >= first, last < Int64.max
        else { return nil }
        let complete = spec[spec.index(after: slash)...]
        if complete == "*" {
            completeLength = nil
        } else {
            guard let length = Self.number(complete), length > last else { return nil }
            completeLength = length
        }
        bytes = first..<(last + 1)
    }

    /// Decimal digits only, at most what fits in `Int64`.
    private static func number(_ digits: some StringProtocol) -> Int64? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(digits)
    }
}
