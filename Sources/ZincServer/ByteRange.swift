import ZincHTTP

/// What a `Range` request header asks of a file of known size (RFC 9110 §14).
///
/// Only single ranges are answered with 206: clients of a catalog fetch one prefix of an archive,
/// and the RFC lets a server answer a multi-range request with the whole representation, which
/// spares us `multipart/byteranges`.
package enum ByteRange: Equatable {
    /// No usable range: send the whole file with 200. Covers an absent header, another unit,
    /// a syntactically invalid value (which the RFC says to ignore) and multiple ranges.
    case entireFile
    /// Send these bytes with 206.
    case partial(Range<Int>)
    /// Send 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    package init(header: String?, fileSize size: Int) {
        guard let header, let equals = header.firstIndex(of: "=") else {
            self = .entireFile
            return
        }
        let unit = header[..<equals].trimmingOptionalWhitespace()
        let set = header[header.index(after: equals)...]
        guard unit.lowercased() == "bytes", !set.contains(",") else {
            self = .entireFile
            return
        }
        let spec = set.trimmingOptionalWhitespace()
        guard let dash = spec.firstIndex(of: "-") else {
            self = .entireFile
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]

        if first.isEmpty {
            // Suffix range: the final `n` bytes, clamped to the file.
            guard let length = Self.position(last) else {
                self = .entireFile
                return
            }
            self = length == 0 || size == 0 ? .unsatisfiable : .partial(max(0, size - length)..<size)
            return
        }
        guard let start = Self.position(first) else {
            self = .entireFile
            return
        }
        if last.isEmpty {
            self = start < size ? .partial(start..<size) : .unsatisfiable
            return
        }
        guard let end = Self.position(last), end >= start else {
            self = .entireFile
            return
        }
        self = start < size ? .partial(start..<(min(end, size - 1) + 1)) : .unsatisfiable
    }

    /// Digits only; a value too large for `Int` saturates so that a huge first position is
    /// unsatisfiable and a huge last position means "to the end", as the RFC implies.
    private static func position(_ digits: Substring) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            value = overflow1 || overflow2 ? Int.max : sum
        }
        return value
    }
}

extension StringProtocol {
    /// Strips the optional whitespace (SP / HTAB) that HTTP allows around field values and list items.
    func trimmingOptionalWhitespace() -> SubSequence {
        trimming { $0 == " " || $0 == "\t" }
    }
}
