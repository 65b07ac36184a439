/// The line form that signature files and rollout files share: a first line naming the
/// format, then `name value` lines, each ending with `\n`. A name is lowercase letters and
/// a value is never empty; the file holds no other control character and is valid UTF-8.
/// A signed file ends with a `key` line and a `signature` line covering every byte before
/// it. Parsing is strict: these files come from a server.
package struct FieldLines {
    /// Every line after the first, in order.
    package let fields: [(name: String, value: String)]
    /// Where the last line starts: what a final `signature` line signs ends there.
    private let lastLineStart: Int
    private let bytes: [UInt8]

    /// The lines of `bytes`, at most `limit` of them, which must start with `magic`; `what`
    /// names the file in messages ("a rollout file"), and `bad` makes the error.
    package init(_ bytes: [UInt8], magic: String, limit: Int, what: String, bad: (String) -> ZincError) throws {
        guard bytes.count <= limit else { throw bad("larger than the \(limit) bytes \(what) may have") }
        guard bytes.last == UInt8(ascii: "\n") else { throw bad("does not end with a newline") }
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\n")) || $0 == 0x7F }),
            String(validating: bytes, as: UTF8.self) != nil
        else {
            throw bad("holds control characters or invalid UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.first == Substring(magic) else { throw bad("does not start with '\(magic)'") }
        var fields = [(name: String, value: String)]()
        var start = 0
        var lastLineStart = 0
        for (number, line) in lines.enumerated() {
            lastLineStart = start
            start += line.utf8.count + 1
            if number == 0 { continue }
            guard let space = line.firstIndex(of: " "), space != line.startIndex,
                line[..<space].allSatisfy({ $0 >= "a" && $0 <= "z" }), line.index(after: space) != line.endIndex
            else {
                throw bad("line \(number + 1) is not 'NAME VALUE'")
            }
            fields.append((String(line[..<space]), String(line[line.index(after: space)...])))
        }
        self.fields = fields
        self.lastLineStart = lastLineStart
        self.bytes = bytes
    }

    /// A file of `fields` after the `magic` line, signed with `key` when there is one.
    package static func encode(magic: String, fields: [(String, String)], key: SigningKey?) -> [UInt8] {
        var text = magic + "\n"
        for (name, value) in fields { text += "\(name) \(value)\n" }
        guard let key else { return Array(text.utf8) }
        text += "key \(key.publicKey.id)\n"
        let signed = Array(text.utf8)
        return signed + Array("signature \(Hex.encode(key.sign(signed)))\n".utf8)
    }

    /// The key and signature the last two lines give, and the bytes they sign; nil when the
    /// last line is no `signature` line (an unsigned file, where that is allowed).
    package func signature(bad: (String) -> ZincError) throws -> (keyID: String, signature: [UInt8], signed: [UInt8])? {
        guard fields.count >= 2, let last = fields.last, last.name == "signature" else { return nil }
        guard let signature = Hex.decode(last.value, count: 64) else {
            throw bad("the last line must be 'signature' and 128 hex digits")
        }
        let key = fields[fields.count - 2]
        guard key.name == "key", Hex.decode(key.value, count: 8) != nil else {
            throw bad("the line before the last must be 'key' and 16 hex digits")
        }
        return (key.value, signature, Array(bytes[..<lastLineStart]))
    }
}

extension Int64 {
    /// A decimal number without sign or leading zeros, as the line form spells numbers.
    package init?(checkedDecimal text: some StringProtocol) {
        guard (1...19).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
            text == "0" || !text.hasPrefix("0"), let value = Int64(text)
        else { return nil }
        self = value
    }
}
