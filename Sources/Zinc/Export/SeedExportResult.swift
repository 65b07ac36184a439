/// What a ``SeedExport`` wrote.
public struct SeedExportResult: Equatable, Sendable, Encodable {
    /// What `seed.json` says: the catalog, bundle, version and flavor; and the
    /// distribution `seed-distro.json` names, if any.
    public let seed: SeedFolder
    public let folder: String
    public let fileCount: Int
    /// The files' bytes, uncompressed: what the app ships.
    public let bytes: Int64
    /// The ids of the keys whose manifest signatures the seed holds; empty for a catalog
    /// that is not signed. A client trusting one of them checks the seed against it.
    public let signingKeys: [String]

    private enum CodingKeys: String, CodingKey {
        case catalog, bundle, version, flavor, distro, folder, files, bytes
        case signingKeys = "signing_keys"
    }

    /// The seed's catalog, bundle, version, flavor and distro beside the others (`export_seed --json`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seed.catalog, forKey: .catalog)
        try container.encode(seed.bundle, forKey: .bundle)
        try container.encode(seed.version, forKey: .version)
        try container.encodeIfPresent(seed.flavor, forKey: .flavor)
        try container.encodeIfPresent(seed.distro, forKey: .distro)
        try container.encode(folder, forKey: .folder)
        try container.encode(fileCount, forKey: .files)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(signingKeys, forKey: .signingKeys)
    }
}
