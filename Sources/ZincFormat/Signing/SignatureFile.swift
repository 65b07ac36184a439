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
package struct SignatureFile {
    static let magic = "zinc-signature 1"

    var kind: String
    /// Between `kind` and `key`, in order.
    var fields: [(name: String, value: String)]
    var keyID: String
    var signature: [UInt8]
    /// The bytes the signature covers.
    var signed: [UInt8]

    // The memberwise initializer, spelled out to be visible to the rest of the package
    // (rollout files in Zinc build their signature trailer with it).
    package init(kind: String, fields: [(name: String, value: String)], keyID: String, signature: [UInt8], signed: [UInt8]) {
        self.kind = kind
        self.fields = fields
        self.keyID = keyID
        self.signature = signature
        self.signed = signed
    }

    /// Builds and signs a file.
    static func encode(kind: String, fields: [(String, String)], key: SigningKey) -> [UInt8] {
        FieldLines.encode(magic: magic, fields: [("kind", kind)] + fields, key: key)
    }

    /// Parses a file of at most `limit` bytes, without checking its signature.
    static func parse(_ bytes: [UInt8], path: String, kind: String, limit: Int) throws -> SignatureFile {
        func bad(_ reason: String) -> ZincError { .signature(path: path, reason: reason) }
        let lines = try FieldLines(bytes, magic: magic, limit: limit, what: "a \(kind) signature", bad: bad)
        guard lines.fields.count >= 3 else { throw bad("does not start with '\(magic)'") }
        guard lines.fields[0] == ("kind", kind) else { throw bad("is not a \(kind) signature (line 2 must be 'kind \(kind)')") }
        guard let trailer = try lines.signature(bad: bad) else {
            throw bad("the last line must be 'signature' and 128 hex digits")
        }
        return SignatureFile(
            kind: kind, fields: Array(lines.fields[1..<(lines.fields.count - 2)]), keyID: trailer.keyID,
            signature: trailer.signature, signed: trailer.signed)
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
    package func verified(by trusted: [PublicKey], path: String) throws -> PublicKey {
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
package struct SignatureFields {
    private var fields: ArraySlice<(name: String, value: String)>
    let path: String

    private let failure: @Sendable (String, String) -> ZincError

    init(_ file: SignatureFile, path: String) {
        self.init(file.fields, path: path) { .signature(path: $0, reason: $1) }
    }

    /// Fields of another file of this form, whose errors `failure` makes from its path
    /// and a reason.
    package init(
        _ fields: [(name: String, value: String)], path: String,
        failure: @escaping @Sendable (String, String) -> ZincError
    ) {
        self.fields = fields[...]
        self.path = path
        self.failure = failure
    }

    func bad(_ reason: String) -> ZincError { failure(path, reason) }

    package mutating func text(_ name: String) throws -> String {
        guard let next = fields.popFirst(), next.name == name else { throw bad("expected the field '\(name)' here") }
        return next.value
    }

    /// A decimal number without sign or leading zeros, in `range`.
    package mutating func number(_ name: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let value = try text(name)
        guard let number = Int64(checkedDecimal: value), range.contains(number) else {
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

    /// The name of the next field, nil at the end: for optional and repeated fields.
    package var peek: String? { fields.first?.name }

    mutating func popFirst() -> (name: String, value: String)? { fields.popFirst() }

    package func end() throws {
        guard fields.isEmpty else { throw bad("has an unexpected field '\(fields.first!.name)'") }
    }
}
