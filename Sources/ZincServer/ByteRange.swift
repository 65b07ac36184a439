import ZincHTTP

/// What a `Range` request header asks of a file of known size (RFC 9110 §14).
///
/// A set of ranges is answered part by part as `multipart/byteranges`, so that a client
/// fetches the scattered pieces it lacks (archive members, chunks of a large object) in one
/// request. Sets a static host would not serve gracefully get the whole file instead, which
/// the RFC allows: more than `maximumParts` ranges, or ranges that overlap (a client of a
/// catalog never asks for those; a hostile one might, to make the server send a file many
/// times over).
package enum ByteRange: Equatable {
    /// No usable range: send the whole file with 200. Covers an absent header, another unit,
    /// a syntactically invalid value (which the RFC says to ignore) and refused sets.
    case entireFile
    /// Send these bytes with 206.
    case partial(Range<Int>)
    /// Send these ranges, in the order asked (two or more, none overlapping), with 206
    /// as `multipart/byteranges`.
    case multipart([Range<Int>])
    /// Send 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// The most ranges answered part by part: a chunked update of a large pack asks for
    /// hundreds; a request with more fits no sane client and gets the whole file.
    package static let maximumParts = 1024

    package init(header: String?, fileSize size: Int) {
        guard let header, let equals = header.firstIndex(of: "=") else {
            self = .entireFile
            return
        }
        let unit = header[..<equals].trimmingOptionalWhitespace()
        guard unit.lowercased() == "bytes" else {
            self = .entireFile
            return
        }
        // The RFC's list syntax allows empty elements ("0-1,,5-6").
        let specs = header[header.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingOptionalWhitespace() }.filter { !$0.isEmpty }
        guard !specs.isEmpty, specs.count <= Self.maximumParts else {
            self = .entireFile
            return
        }
        var satisfiable = [Range<Int>]()
        for spec in specs {
            switch Self.parse(spec, fileSize: size) {
            case nil:
                self = .entireFile
                return
            case .some(nil):
                continue  // unsatisfiable alone: dropped from the set, as the RFC says
            case .some(let range?):
                satisfiable.append(range)
            }
        }
        switch satisfiable.count {
        case 0:
            self = .unsatisfiable
        case 1:
            self = .partial(satisfiable[0])
        default:
            // Ranges within the file that do not overlap add up to no more than the file.
            let sorted = satisfiable.sorted { $0.lowerBound < $1.lowerBound }
            let overlaps = zip(sorted, sorted.dropFirst()).contains { $0.upperBound > $1.lowerBound }
            self = overlaps ? .entireFile : .multipart(satisfiable)
        }
    }

    /// One range-spec: nil when it is invalid (the whole header is then ignored), `.some(nil)`
    /// when it is valid but unsatisfiable for this size.
    private static func parse(_ spec: Substring, fileSize size: Int) -> Range<Int>?? {
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]

        if first.isEmpty {
            // Suffix range: the final `n` bytes, clamped to the file.
            guard let length = position(last) else { return nil }
            return .some(length == 0 || size == 0 ? nil : max(0, size - length)..<size)
        }
        guard let start = position(first) else { return nil }
        if last.isEmpty {
            return .some(start < size ? start..<size : nil)
        }
        guard let end = position(last), end >= start else { return nil }
        return .some(start < size ? start..<(min(end, size - 1) + 1) : nil)
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
