/// What a catalog's writers sign with: a key, and how long an index signature stays
/// valid. A `Catalog` opened with one signs every manifest its index starts listing and
/// every index it commits (`Catalog.signBeforeCommit`), whichever command or program
/// changes it.
public struct CatalogSigner: Sendable {
    public let key: SigningKey
    /// From signing to expiry of an index signature; clients refuse it afterwards.
    public let validity: Duration

    public static let defaultValidity: Duration = .seconds(30 * 86_400)

    public init(key: SigningKey, validity: Duration = defaultValidity) {
        self.key = key
        self.validity = validity
    }
}

/// What `zinc sign` did.
public struct SigningReport: Equatable, Sendable {
    /// Manifests signed now, and those that already carried a valid signature by the key.
    public let manifestsSigned: Int
    public let manifestsAlreadySigned: Int
    public let index: IndexSignature

    /// `{"manifests_signed", "manifests_already_signed", "key", "sequence", "signed", "expires"}`.
    public func json() -> JSONValue {
        .object([
            "manifests_signed": .int(Int64(manifestsSigned)),
            "manifests_already_signed": .int(Int64(manifestsAlreadySigned)),
            "key": .string(index.keyID),
            "sequence": .int(index.sequence),
            "signed": .int(index.signedAt),
            "expires": .int(index.expiresAt),
        ])
    }
}
