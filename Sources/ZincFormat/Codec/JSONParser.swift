/// A strict RFC 8259 parser straight from UTF-8 bytes to `JSONValue`. Manifests of
/// 100,000 files are parsed on every import and sync, and Foundation's decoder spends
/// most of that time in generic machinery; this also bounds nesting depth, so a hostile
/// document cannot exhaust the stack.
///
/// The bytes are either held whole or pulled from a source in pieces (`parseObject(reading:…)`):
/// a manifest of 1,000,000 files is 112 MB of JSON, and a streamed one is held one piece
/// and one file entry at a time. Only the bytes of the token or value in progress are
/// kept across pieces, and a streamed value may take at most `maximumStreamedValue`
/// bytes, so a hostile document (an endless string, a huge entry) is refused with
/// memory flat.
struct JSONParser {
    /// The bytes from the document's offset `dropped` on.
    private var bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private var dropped = 0
    /// Appends the document's next bytes to the buffer; false at its end. Nil when the
    /// buffer holds the whole document.
    private let source: ((inout [UInt8]) throws -> Bool)?
    /// Where the string or number being read began (document offset): kept across pieces.
    private var tokenStart: Int?
    /// Where the streamed value being read began (document offset), for its bound.
    private var valueStart: Int?
    static let maximumDepth = 512
    /// The most bytes a value in a streamed object, or a token anywhere in a streamed
    /// document, may take: a manifest's file entry is under 1 KiB.
    static let maximumStreamedValue = 1 << 20

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, source: nil)
        try parser.skipWhitespace()
        let value = try parser.parseValue()
        try parser.expectEnd()
        return value
    }

    /// Parses a top-level object like `parse`, except that the members of the object
    /// under `key` are handed to `member` one at a time instead of being collected: a
    /// manifest's `files` can hold 100,000 entries, and memory stays at one entry's tree.
    /// Returns the other top-level members, and whether `key` was there at all.
    static func parseObject(
        _ bytes: [UInt8], streaming key: String,
        _ member: (String, JSONValue) throws -> Void
    ) throws -> (members: [String: JSONValue], found: Bool) {
        try parseObject(bytes, streaming: key) { parser, name in try member(name, try parser.parseValue()) }
    }

    /// `parseObject(_:streaming:_:)` where `member` reads each streamed value itself from
    /// the parser (`parseMembers`, `parseItems`, `parseValue`): a manifest's file entry read
    /// into its fields directly, with no dictionary for it, its formats and their sizes.
    static func parseObject(
        _ bytes: [UInt8], streaming key: String,
        reading member: (inout JSONParser, String) throws -> Void
    ) throws -> (members: [String: JSONValue], found: Bool) {
        var parser = JSONParser(bytes: bytes, source: nil)
        return try parser.parseObject(streaming: key, member)
    }

    /// `parseObject(_:streaming:_:)` of a document `source` hands over in pieces (it
    /// appends the next piece to its argument and says false at the end), never held whole.
    static func parseObject(
        reading source: @escaping (inout [UInt8]) throws -> Bool, streaming key: String,
        _ member: (String, JSONValue) throws -> Void
    ) throws -> (members: [String: JSONValue], found: Bool) {
        try parseObject(reading: source, streaming: key) { parser, name in try member(name, try parser.parseValue()) }
    }

    /// `parseObject(reading:streaming:_:)` where `member` reads each streamed value itself,
    /// as in `parseObject(_:streaming:reading:)`.
    static func parseObject(
        reading source: @escaping (inout [UInt8]) throws -> Bool, streaming key: String,
        reading member: (inout JSONParser, String) throws -> Void
    ) throws -> (members: [String: JSONValue], found: Bool) {
        var parser = JSONParser(bytes: [], source: source)
        return try parser.parseObject(streaming: key, member)
    }

    private mutating func parseObject(
        streaming key: String, _ member: (inout JSONParser, String) throws -> Void
    ) throws -> (members: [String: JSONValue], found: Bool) {
        try skipWhitespace()
        guard try peek(UInt8(ascii: "{")) else { throw error("expected an object") }
        var top = [String: JSONValue]()
        var streamed = false
        try parseMembers { parser, name in
            if name == key && !streamed {
                streamed = true
                guard try parser.peek(UInt8(ascii: "{")) else { throw parser.error("'\(key)' is not an object") }
                try parser.parseMembers { parser, inner in try parser.bounded { try member(&$0, inner) } }
            } else {
                guard top.updateValue(try parser.parseBoundedValue(), forKey: name) == nil, name != key else {
                    throw parser.error("duplicate key '\(name)'")
                }
            }
        }
        try expectEnd()
        return (top, streamed)
    }

    private init(bytes: [UInt8], source: ((inout [UInt8]) throws -> Bool)?) {
        self.bytes = bytes
        self.source = source
    }

    /// Whether `count` bytes from `position` on are in the buffer, pulling pieces from
    /// the source while they are not.
    @inline(__always)
    private mutating func has(_ count: Int) throws -> Bool {
        position + count <= bytes.count ? true : try pull(count)
    }

    private mutating func pull(_ count: Int) throws -> Bool {
        guard let source else { return false }
        while position + count > bytes.count {
            // Drop what was read, but the token in progress.
            let keep = min(position, (tokenStart ?? .max) - dropped)
            if keep > 0 {
                bytes.removeSubrange(0..<keep)
                position -= keep
                dropped += keep
            }
            let start = min(valueStart ?? .max, tokenStart ?? .max)
            if start != .max, dropped + bytes.count - start > Self.maximumStreamedValue {
                throw JSONValue.ParseError(
                    description: "a value longer than \(Self.maximumStreamedValue) bytes at byte \(start)")
            }
            guard try source(&bytes) else { return false }
        }
        return true
    }

    private mutating func expectEnd() throws {
        try skipWhitespace()
        guard try !has(1) else { throw error("unexpected data after the JSON value") }
    }

    /// `parseValue`, bounded to `maximumStreamedValue` bytes when streamed.
    private mutating func parseBoundedValue() throws -> JSONValue {
        try bounded { try $0.parseValue() }
    }

    /// Reads one value by `body`, bounded to `maximumStreamedValue` bytes when streamed.
    private mutating func bounded<T>(_ body: (inout JSONParser) throws -> T) throws -> T {
        valueStart = dropped + position
        defer { valueStart = nil }
        return try body(&self)
    }

    func error(_ message: String) -> JSONValue.ParseError {
        JSONValue.ParseError(description: "\(message) at byte \(dropped + position)")
    }

    private mutating func skipWhitespace() throws {
        while try has(1) {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws -> JSONValue {
        guard try has(1) else { throw error("unexpected end of data") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard try has(count),
            literal.withUTF8Buffer({ $0.elementsEqual(bytes[position..<(position + count)]) })
        else {
            throw error("invalid literal")
        }
        position += count
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws -> T) throws -> T {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func parseObject() throws -> JSONValue {
        var members = [String: JSONValue]()
        try parseMembers { parser, key in
            guard members.updateValue(try parser.parseValue(), forKey: key) == nil else {
                throw parser.error("duplicate key '\(key)'")
            }
        }
        return .object(members)
    }

    /// Walks the members of the object that begins here (an error when none does),
    /// leaving each value for `value` to consume.
    mutating func parseMembers(_ value: (inout JSONParser, String) throws -> Void) throws {
        guard try peek(UInt8(ascii: "{")) else { throw error("expected an object") }
        try nested { parser in
            parser.position += 1
            try parser.skipWhitespace()
            if try parser.peek(UInt8(ascii: "}")) { parser.position += 1; return }
            while true {
                try parser.skipWhitespace()
                guard try parser.peek(UInt8(ascii: "\"")) else { throw parser.error("expected a string key") }
                let key = try parser.parseString()
                try parser.skipWhitespace()
                guard try parser.peek(UInt8(ascii: ":")) else { throw parser.error("expected ':'") }
                parser.position += 1
                try parser.skipWhitespace()
                try value(&parser, key)
                try parser.skipWhitespace()
                if try parser.peek(UInt8(ascii: ",")) { parser.position += 1; continue }
                if try parser.peek(UInt8(ascii: "}")) { parser.position += 1; return }
                throw parser.error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        var items = [JSONValue]()
        try parseItems { items.append(try $0.parseValue()) }
        return .array(items)
    }

    /// Walks the items of the array that begins here (an error when none does), leaving
    /// each for `item` to consume.
    mutating func parseItems(_ item: (inout JSONParser) throws -> Void) throws {
        guard try peek(UInt8(ascii: "[")) else { throw error("expected an array") }
        try nested { parser in
            parser.position += 1
            try parser.skipWhitespace()
            if try parser.peek(UInt8(ascii: "]")) { parser.position += 1; return }
            while true {
                try parser.skipWhitespace()
                try item(&parser)
                try parser.skipWhitespace()
                if try parser.peek(UInt8(ascii: ",")) { parser.position += 1; continue }
                if try parser.peek(UInt8(ascii: "]")) { parser.position += 1; return }
                throw parser.error("expected ',' or ']'")
            }
        }
    }

    mutating func peek(_ byte: UInt8) throws -> Bool {
        try has(1) && bytes[position] == byte
    }

    /// The bytes of the token that began at `tokenStart`, up to `position`.
    private var token: ArraySlice<UInt8> { bytes[(tokenStart! - dropped)..<position] }

    /// A string's bytes as `readString` found them.
    private enum StringBytes {
        /// No escape: the string is these bytes of the buffer, all ASCII or not.
        case plain(Range<Int>, ascii: Bool)
        /// The string's bytes, unescaped.
        case escaped([UInt8])
    }

    private mutating func parseString() throws -> String {
        switch try readString() {
        case .plain(let range, let ascii):
            defer { position += 1 }
            // ASCII is valid UTF-8: no validation to pay, which was most of reading a path.
            guard ascii else { return try validUTF8(bytes[range]) }
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        case .escaped(let buffer):
            position += 1
            return try validUTF8(buffer[...])
        }
    }

    /// Reads the string that begins here as `convert` makes it from its UTF-8 (nil when
    /// it refuses them), straight from the document's bytes when the string has no
    /// escape: a manifest's digests, with no String made for them. The errors are
    /// `parseValue`'s: a refused string is still checked to be UTF-8.
    mutating func parseString<T>(as convert: (UnsafeBufferPointer<UInt8>) -> T?) throws -> T? {
        switch try readString() {
        case .plain(let range, let ascii):
            defer { position += 1 }
            guard let value = bytes.withUnsafeBufferPointer({ convert(UnsafeBufferPointer(rebasing: $0[range])) }) else {
                if !ascii { _ = try validUTF8(bytes[range]) }
                return nil
            }
            return value
        case .escaped(let buffer):
            position += 1
            var string = try validUTF8(buffer[...])
            return string.withUTF8(convert)
        }
    }

    /// Reads the string that begins here up to its closing quote, where it leaves
    /// `position`.
    private mutating func readString() throws -> StringBytes {
        position += 1
        tokenStart = dropped + position
        defer { tokenStart = nil }
        // Fast path: no escapes, the bytes are the string. They are scanned in memory,
        // the bits of every byte gathered to tell ASCII.
        var bits: UInt8 = 0
        while true {
            let (end, scanned) = bytes.withUnsafeBufferPointer { Self.scanPlain($0, from: position) }
            position = end
            bits |= scanned
            guard try has(1) else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return .plain((tokenStart! - dropped)..<position, ascii: bits < 0x80) }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            // Any other byte came with the piece `has` pulled: scanned on the next turn.
        }
        var buffer = Array(token)
        while try has(1) {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                return .escaped(buffer)
            case UInt8(ascii: "\\"):
                position += 1
                guard try has(1) else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                buffer.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseUnicodeEscape() throws -> [UInt8] {
        var scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard try has(2), bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate")
            }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired surrogate")
        }
        return Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard try has(4),
            let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16)
        else {
            throw error("invalid \\u escape")
        }
        position += 4
        return value
    }

    /// Where the plain bytes from `start` end (at a quote, a backslash, a control
    /// character or the end of the buffer), and the bits of every byte before that.
    private static func scanPlain(_ all: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, bits: UInt8) {
        var i = start
        var bits: UInt8 = 0
        while i < all.count {
            let byte = all[i]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            i += 1
        }
        return (i, bits)
    }

    private func validUTF8(_ slice: ArraySlice<UInt8>) throws -> String {
        guard let string = slice.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
            throw error("invalid UTF-8 in a string")
        }
        return string
    }

    private mutating func parseNumber() throws -> JSONValue {
        tokenStart = dropped + position
        defer { tokenStart = nil }
        if try peek(UInt8(ascii: "-")) { position += 1 }
        guard try has(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
            throw error("invalid number")
        }
        if bytes[position] == UInt8(ascii: "0") { position += 1 } else { try skipDigits() }
        var isInteger = true
        if try peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard try skipDigits() > 0 else { throw error("invalid number") }
        }
        if try peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if try peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard try skipDigits() > 0 else { throw error("invalid number") }
        }
        if isInteger, let value = Self.integer(token) { return .int(value) }
        guard let value = Double(String(decoding: token, as: UTF8.self)) else { throw error("invalid number") }
        return .double(value)
    }

    /// The value of an optional '-' and digits, nil when it does not fit in 64 bits
    /// (then it is read as a Double, as `Int64(String)` would refuse it): sizes and
    /// versions are most of a manifest's numbers, and a String per number adds up.
    private static func integer(_ text: ArraySlice<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for digit in text.dropFirst(negative ? 1 : 0) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) = shifted.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !overflowAgain else { return nil }
            value = next  // accumulated negative, so that Int64.min fits
        }
        if negative { return value }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    @discardableResult
    private mutating func skipDigits() throws -> Int {
        let start = dropped + position
        while try has(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return dropped + position - start
    }
}
