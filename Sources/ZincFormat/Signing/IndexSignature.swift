/// `signatures/catalog.json.sig`: the publisher's signature of one index.
///
/// It covers the SHA-256 of the plain `catalog.json` bytes (the other three copies hold
/// the same bytes, gzipped or not), a sequence number that grows with every index the
/// publisher signs (a client refuses one lower than it accepted before: rollback), and
/// when it was signed and stops being valid (a client refuses it after that: freeze).
/// Written before the index it covers; see `CommitSigning.signBeforeCommit`.
package struct IndexSignature: Equatable, Sendable {
    package static let path = "signatures/catalog.json.sig"
    static let kind = "index"
    /// Far more than the file's few lines need.
    package static let sizeLimit = 4096
    /// Times are seconds since 1970 up to year 9999; sequences fit a double exactly.
    package static let timeRange: ClosedRange<Int64> = 0...253_402_300_799
    package static let sequenceRange: ClosedRange<Int64> = 1...(1 << 53)

    package var catalog: String
    package var sequence: Int64
    /// Seconds since 1970, UTC.
    package var signedAt: Int64
    package var expiresAt: Int64
    package var indexSHA256: SHA256.Digest
    /// The key that signed it (16 hex digits); set by `parse`.
    package var keyID = ""

    package init(catalog: String, sequence: Int64, signedAt: Int64, expiresAt: Int64, indexSHA256: SHA256.Digest) {
        self.catalog = catalog
        self.sequence = sequence
        self.signedAt = signedAt
        self.expiresAt = expiresAt
        self.indexSHA256 = indexSHA256
    }

    /// The signature file's bytes, signed with `key`.
    package func encoded(signedBy key: SigningKey) -> [UInt8] {
        SignatureFile.encode(
            kind: Self.kind,
            fields: [
                ("catalog", catalog), ("sequence", "\(sequence)"), ("signed", "\(signedAt)"), ("expires", "\(expiresAt)"),
                ("sha", indexSHA256.hex),
            ], key: key)
    }

    /// The signature's content, without checking who signed it (`verified` does both):
    /// for tools and tests that inspect or re-sign one.
    package static func parseUnverified(_ bytes: [UInt8], path: String) throws -> IndexSignature {
        try parse(bytes, path: path).0
    }

    package static func parse(_ bytes: [UInt8], path: String) throws -> (IndexSignature, SignatureFile) {
        let file = try SignatureFile.parse(bytes, path: path, kind: kind, limit: sizeLimit)
        var fields = SignatureFields(file, path: path)
        let catalog = try fields.text("catalog")
        try Names.checked(in: path) { try Names.validateCatalogID(catalog) }
        var signature = IndexSignature(
            catalog: catalog, sequence: try fields.number("sequence", in: sequenceRange),
            signedAt: try fields.number("signed", in: timeRange),
            expiresAt: try fields.number("expires", in: timeRange),
            indexSHA256: try fields.sha256("sha"))
        try fields.end()
        guard signature.expiresAt >= signature.signedAt else { throw fields.bad("expires before it was signed") }
        signature.keyID = file.keyID
        return (signature, file)
    }

    /// The signature in `bytes`, made by one of `trusted`; throws otherwise.
    package static func verified(_ bytes: [UInt8], path: String, trusted: [PublicKey]) throws -> IndexSignature {
        try SignatureFile.document(bytes, path: path, signedByOneOf: trusted, parse: parse)
    }

    /// Whether it has expired at `now` (seconds since 1970).
    package func isExpired(at now: Int64) -> Bool { expiresAt <= now }
}
