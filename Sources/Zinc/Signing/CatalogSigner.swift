/// What a catalog's writers sign with: a key, and how long an index signature stays
/// valid. A `Catalog` opened with one signs every manifest its index starts listing and
/// every index it commits (`CommitSigning.signBeforeCommit`), whichever command or program
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
public struct SigningReport: Equatable, Sendable, Encodable {
    /// Manifests signed now, and those that already carried a valid signature by the key.
    public let manifestsSigned: Int
    public let manifestsAlreadySigned: Int
    package let index: IndexSignature
    /// Rollout files signed anew.
    public let rolloutsRenewed: Int

    private enum CodingKeys: String, CodingKey {
        case manifestsSigned = "manifests_signed"
        case manifestsAlreadySigned = "manifests_already_signed"
        case rolloutsRenewed = "rollouts_renewed"
        case key, sequence, signed, expires
    }

    /// `{"manifests_signed", "manifests_already_signed", "key", "sequence", "signed", "expires", "rollouts_renewed"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(manifestsSigned, forKey: .manifestsSigned)
        try container.encode(manifestsAlreadySigned, forKey: .manifestsAlreadySigned)
        try container.encode(index.keyID, forKey: .key)
        try container.encode(index.sequence, forKey: .sequence)
        try container.encode(index.signedAt, forKey: .signed)
        try container.encode(index.expiresAt, forKey: .expires)
        try container.encode(rolloutsRenewed, forKey: .rolloutsRenewed)
    }
}
