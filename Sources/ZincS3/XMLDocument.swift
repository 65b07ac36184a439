/// A small XML reader for S3's answers (listings, errors, multipart replies). They are
/// untrusted input: the reader never crashes, bounds its nesting, and treats anything
/// it does not understand as malformed rather than guessing. Namespaces, attributes,
/// processing instructions, comments and DOCTYPEs are skipped.
package struct XMLElement: Equatable, Sendable {
    package let name: String
    package let children: [XMLElement]
    /// The element's own character data (entities decoded), without its children's.
    package let text: String

    /// The first direct child with this name.
    package func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// Every direct child with this name.
    package func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The text of the first direct child with this name.
    package func value(_ name: String) -> String? { child(name)?.text }

    /// Parses a whole document; nil when it is not well-formed enough to read.
    package static func parse(_ bytes: [UInt8]) -> XMLElement? {
        var parser = XMLScanner(bytes: bytes)
        return parser.document()
    }
}

private struct XMLScanner {
    let bytes: [UInt8]
    var position = 0
    static let maximumDepth = 32

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func document() -> XMLElement? {
        skipMisc()
        guard let root = element(depth: 0) else { return nil }
        skipMisc()
        return position == bytes.count ? root : nil
    }

    /// Skips whitespace, the XML declaration, comments and DOCTYPE before or after the root.
    private mutating func skipMisc() {
        while position < bytes.count {
            if isSpace(bytes[position]) {
                position += 1
            } else if starts(with: "<?") {
                guard skip(past: "?>") else { return }
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return }
            } else if starts(with: "<!") {
                guard skip(past: ">") else { return }
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int) -> XMLElement? {
        guard depth < Self.maximumDepth, position < bytes.count, bytes[position] == UInt8(ascii: "<") else { return nil }
        position += 1
        guard let name = name() else { return nil }
        // Attributes (xmlns="…") are not needed: skip to the end of the tag.
        var inQuote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            if let quote = inQuote {
                if byte == quote { inQuote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                inQuote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            position += 1
        }
        guard position < bytes.count else { return nil }
        let selfClosing = bytes[position - 1] == UInt8(ascii: "/")
        position += 1
        if selfClosing { return XMLElement(name: name, children: [], text: "") }
        var children = [XMLElement]()
        var text = [UInt8]()
        while position < bytes.count {
            if starts(with: "</") {
                position += 2
                guard self.name() == name else { return nil }
                while position < bytes.count, isSpace(bytes[position]) { position += 1 }
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { return nil }
                position += 1
                guard let decoded = Self.decodeEntities(text) else { return nil }
                return XMLElement(name: name, children: children, text: decoded)
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                guard skip(past: "]]>") else { return nil }
                // CDATA is literal: escape its ampersands so decoding leaves them alone.
                for byte in bytes[start..<(position - 3)] {
                    if byte == UInt8(ascii: "&") { text += Array("&amp;".utf8) } else { text.append(byte) }
                }
            } else if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if bytes[position] == UInt8(ascii: "<") {
                guard let child = element(depth: depth + 1) else { return nil }
                children.append(child)
            } else {
                text.append(bytes[position])
                position += 1
            }
        }
        return nil
    }

    private mutating func name() -> String? {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<") { break }
            position += 1
        }
        guard position > start else { return nil }
        var name = String(decoding: bytes[start..<position], as: UTF8.self)
        // "s3:Key" and "Key" mean the same here.
        if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
        return name.isEmpty ? nil : name
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { prefix in
            (0..<count).allSatisfy { bytes[position + $0] == prefix[$0] }
        }
    }

    /// Moves past the next occurrence of `literal`; false when there is none.
    private mutating func skip(past literal: StaticString) -> Bool {
        while position < bytes.count {
            if starts(with: literal) {
                position += literal.utf8CodeUnitCount
                return true
            }
            position += 1
        }
        return false
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Decodes the five named entities and numeric character references; nil for an
    /// unknown or malformed one, or text that is not UTF-8.
    static func decodeEntities(_ raw: [UInt8]) -> String? {
        guard let text = String(validating: raw, as: UTF8.self) else { return nil }
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { return nil }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                guard entity.hasPrefix("#") else { return nil }
                let digits = entity.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let value, let scalar = Unicode.Scalar(value) else { return nil }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
