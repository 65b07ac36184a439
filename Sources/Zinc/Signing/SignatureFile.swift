/// The text form every signature file shares (FORMAT.md, "Signatures"):
///
/// ```
/// zinc-signature 1
/// kind KIND
/// NAME VALUE          (the fields of the kind, in a fixed order)
/// key KEYID
/// signature HEX
/// ```
///
/// Lines end with `\n`; a field's name is lowercase letters and its value has no control
/// character. The signature (Ed25519, 128 hex digits) covers every byte before the
/// `signature` line, so what is signed is exactly what a reader parses. Parsing is strict
/// (fixed order, sizes and spellings): the file comes from a server.
struct SignatureFile {
    static let magic = "zinc-signature 1"

    var kind: String
    /// Between `kind` and `key`, in order.
    var fields: [(name: String, value: String)]
    var keyID: String
    var signature: [UInt8]
    /// The bytes the signature covers.
    var signed: [UInt8]

    /// Builds and signs a file.
    static func encode(kind: String, fields: [(String, String)], key: SigningKey) -> [UInt8] {
        var text = "\(magic)\nkind \(kind)\n"
        for (name, value) in fields { text += "\(name) \(value)\n" }
        text += "key \(key.publicKey.id)\n"
        let signed = Array(text.utf8)
        return signed + Array("signature \(Hex.encode(key.sign(signed)))\n".utf8)
    }

    /// Parses a file of at most `limit` bytes, without checking its signature.
    static func parse(_ bytes: [UInt8], path: String, kind: String, limit: Int) throws -> SignatureFile {
        func bad(_ reason: String) -> ZincError { .signature(path: path, reason: reason) }
        guard bytes.count <= limit else { throw bad("larger than the \(limit) bytes a \(kind) signature may have") }
        guard bytes.last == UInt8(ascii: "\n") else { throw bad("does not end with a newline") }
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\n")) || $0 == 0x7F }),
            String(validating: bytes, as: UTF8.self) != nil
        else {
            throw bad("holds control characters or invalid UTF-8")
        }
        // Every line with where it starts, so the signed prefix is cut at a line boundary.
        var lines = [(start: Int, text: Substring)]()
        let text = String(decoding: bytes, as: UTF8.self)
        var start = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            lines.append((start, line))
            start += line.utf8.count + 1
        }
        guard lines.count >= 4, lines[0].text == magic else { throw bad("does not start with '\(magic)'") }
        func field(_ line: Substring, _ number: Int) throws -> (String, String) {
            guard let space = line.firstIndex(of: " "), space != line.startIndex,
                line[..<space].allSatisfy({ $0 >= "a" && $0 <= "z" }), line.index(after: space) != line.endIndex
            else {
                throw bad("line \(number) is not 'NAME VALUE'")
            }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
        // parsed[0] is line 2: the magic line is no field.
        let parsed = try lines.enumerated().dropFirst().map { try field($1.text, $0 + 1) }
        guard parsed[0] == ("kind", kind) else { throw bad("is not a \(kind) signature (line 2 must be 'kind \(kind)')") }
        let (keyLine, signatureLine) = (parsed[parsed.count - 2], parsed[parsed.count - 1])
        guard keyLine.0 == "key", Hex.decode(keyLine.1, count: 8) != nil else {
            throw bad("the line before the last must be 'key' and 16 hex digits")
        }
        guard signatureLine.0 == "signature", let signature = Hex.decode(signatureLine.1, count: 64) else {
            throw bad("the last line must be 'signature' and 128 hex digits")
        }
        return SignatureFile(
            kind: kind, fields: Array(parsed[1..<(parsed.count - 2)]).map { (name: $0.0, value: $0.1) },
            keyID: keyLine.1, signature: signature, signed: Array(bytes[..<lines[lines.count - 1].start]))
    }

    /// What `parse` reads from `bytes`, once one of `trusted` is found to have signed it.
    static func document<T>(
        _ bytes: [UInt8], path: String, signedByOneOf trusted: [PublicKey],
        parse: ([UInt8], String) throws -> (T, SignatureFile)
    ) throws -> T {
        let (document, file) = try parse(bytes, path)
        _ = try file.verified(by: trusted, path: path)
        return document
    }

    /// The trusted key that made this signature; throws when none of them did.
    func verified(by trusted: [PublicKey], path: String) throws -> PublicKey {
        guard let key = trusted.first(where: { $0.id == keyID }) else {
            throw ZincError.signature(
                path: path,
                reason: "signed by key \(keyID), which is not trusted (trusted: "
                    + trusted.map(\.id).joined(separator: ", ") + ")")
        }
        guard key.verifies(signature, of: signed) else {
            throw ZincError.signature(path: path, reason: "the signature by key \(keyID) does not match the file's content (tampered)")
        }
        return key
    }
}

/// Reads a signature file's fields in their fixed order.
struct SignatureFields {
    private var fields: ArraySlice<(name: String, value: String)>
    let path: String

    init(_ file: SignatureFile, path: String) {
        fields = file.fields[...]
        self.path = path
    }

    func bad(_ reason: String) -> ZincError { .signature(path: path, reason: reason) }

    mutating func text(_ name: String) throws -> String {
        guard let next = fields.popFirst(), next.name == name else { throw bad("expected the field '\(name)' here") }
        return next.value
    }

    /// A decimal number without sign or leading zeros, in `range`.
    mutating func number(_ name: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let value = try text(name)
        guard value.count <= 19, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber),
            value == "0" || !value.hasPrefix("0"), let number = Int64(value), range.contains(number)
        else {
            throw bad("'\(name)' must be a number from \(range.lowerBound) to \(range.upperBound), not '\(value.prefix(40))'")
        }
        return number
    }

    /// The `catalog`, `bundle` and `version` fields a manifest's and a version's signature
    /// start with, the names checked.
    mutating func signedVersion() throws -> (catalog: String, bundle: String, version: Int) {
        let catalog = try text("catalog")
        let bundle = try text("bundle")
        try Names.checked(in: path) {
            try Names.validateCatalogID(catalog)
            try Names.validateBundleName(bundle)
        }
        return (catalog, bundle, Int(try number("version", in: 1...Int64(Int32.max))))
    }

    mutating func sha256(_ name: String) throws -> SHA256.Digest {
        let value = try text(name)
        guard let digest = SHA256.Digest(hex: value) else { throw bad("'\(name)' must be 64 lowercase hex digits") }
        return digest
    }

    var isAtEnd: Bool { fields.isEmpty }

    mutating func popFirst() -> (name: String, value: String)? { fields.popFirst() }

    func end() throws {
        guard fields.isEmpty else { throw bad("has an unexpected field '\(fields.first!.name)'") }
    }
}
