/// Reads a `multipart/byteranges` body (RFC 9110 §14.6), the answer to a request for several
/// ranges of one file, as it streams in chunk by chunk. Each part's bytes are handed on as
/// they arrive, with the `Content-Range` that places them; only the lines between parts are
/// buffered, and at most `maximumOverhead` bytes of them. The boundary is looked for only
/// between parts: a part's length follows from its Content-Range, so file bytes that happen
/// to contain the delimiter are never misread.
package struct MultipartByteranges {
    package enum Event {
        /// A part starts; its bytes follow, in `data` events.
        case part(ContentRange)
        case data(UnsafeRawBufferPointer)
    }

    /// The body breaks the multipart syntax; `reason` says how.
    package struct Malformed: Error, Equatable {
        package let reason: String
    }

    /// The most bytes of delimiters, part fields and preamble before a part's bytes.
    package static let maximumOverhead = 16 << 10

    private enum State {
        /// Before the first part or after a part's bytes: blank lines, then a delimiter.
        case delimiter
        /// A part's header fields, up to the blank line that ends them.
        case fields(ContentRange?)
        case data(remaining: Int64)
        /// After the closing delimiter; the epilogue is ignored.
        case done
    }

    /// `--boundary`, as it starts each delimiter line.
    private let delimiter: [UInt8]
    private var state = State.delimiter
    private var line = [UInt8]()
    private var overhead = 0
    private var parts = 0

    /// Whether the closing delimiter has been read.
    package var isComplete: Bool {
        if case .done = state { true } else { false }
    }

    /// Reads bodies of a `Content-Type: multipart/byteranges; boundary=…` response; nil for
    /// any other type, or a boundary the RFC does not allow.
    package init?(contentType: String) {
        let parameters = contentType.split(separator: ";").map { $0.trimmingWhitespace() }
        guard parameters.first?.lowercased() == "multipart/byteranges" else { return nil }
        var boundary: Substring?
        for parameter in parameters.dropFirst() {
            guard let equals = parameter.firstIndex(of: "="),
                parameter[..<equals].trimmingWhitespace().lowercased() == "boundary"
            else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            boundary = value
        }
        // RFC 2046 §5.1.1: 1 to 70 characters, printable ASCII.
        guard let boundary, (1...70).contains(boundary.utf8.count),
            boundary.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        delimiter = Array("--\(boundary)".utf8)
    }

    /// Reads the next chunk of the body, handing `handle` each event in order. Returns false,
    /// and reads no further, once `handle` does.
    package mutating func read(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) throws -> Bool) throws -> Bool {
        var i = 0
        while i < chunk.count {
            switch state {
            case .done:
                return true
            case .data(let remaining):
                let n = Int(min(Int64(chunk.count - i), remaining))
                state = remaining == Int64(n) ? .delimiter : .data(remaining: remaining - Int64(n))
                let bytes = UnsafeRawBufferPointer(rebasing: chunk[i..<(i + n)])
                i += n
                guard try handle(.data(bytes)) else { return false }
            case .delimiter, .fields:
                let end = chunk[i...].firstIndex(of: 0x0A)
                let piece = chunk[i..<(end ?? chunk.count)]
                overhead += piece.count + 1
                guard overhead <= Self.maximumOverhead else {
                    throw Malformed(reason: "more than \(Self.maximumOverhead) bytes between the parts' bytes")
                }
                line.append(contentsOf: piece)
                guard let end else { return true }
                i = end + 1
                guard try endOfLine(handle) else { return false }
            }
        }
        return true
    }

    private mutating func endOfLine(_ handle: (Event) throws -> Bool) throws -> Bool {
        // Delimiter lines may carry trailing white space (RFC 2046); lines end in CRLF.
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
        defer { line.removeAll(keepingCapacity: true) }
        switch state {
        case .delimiter:
            if line == delimiter {
                state = .fields(nil)
            } else if line == delimiter + Array("--".utf8) {
                guard parts > 0 else { throw Malformed(reason: "it closes without a part") }
                state = .done
            } else if !line.isEmpty, parts > 0 {
                throw Malformed(reason: "a part's bytes are not followed by the boundary")
            }
            // Blank lines, and a preamble before the first delimiter, are skipped.
            return true
        case .fields(let contentRange):
            guard line.isEmpty else {
                let text = String(decoding: line, as: UTF8.self)
                guard let colon = text.firstIndex(of: ":") else {
                    throw Malformed(reason: "part field '\(text.prefix(80))' has no ':'")
                }
                guard text[..<colon].trimmingWhitespace().lowercased() == "content-range" else { return true }
                let value = text[text.index(after: colon)...]
                guard contentRange == nil, let parsed = ContentRange(value) else {
                    throw Malformed(reason: "part has a second or invalid Content-Range '\(value.trimmingWhitespace().prefix(80))'")
                }
                state = .fields(parsed)
                return true
            }
            guard let contentRange else { throw Malformed(reason: "a part has no Content-Range") }
            parts += 1
            overhead = 0
            state = .data(remaining: contentRange.bytes.upperBound - contentRange.bytes.lowerBound)
            return try handle(.part(contentRange))
        case .data, .done:
            return true
        }
    }
}
