/// A seed: one bundle version as an app ships it inside itself, so that a client repo
/// starts with that version and no request (`zinc export_seed` writes one, a client's
/// `Repo.seed` reads it; the layout is in docs/FORMAT.md, "Seeds"). It is a small
/// catalog folder holding what a client downloads before any object, at the paths it
/// downloads them from, so that the client checks it with the code that checks a
/// catalog, plus the files themselves where an app bundles them:
///
///     seed.json                                {"bundle":B,"catalog":ID,"format":1,"version":V[,"flavor":F]}
///     seed-distro.json                         {"distro":D,"format":1}, for a version exported by distro D
///     catalog.json.gz                          the index, as clients download it
///     manifests/B-V.json.gz                    the version's manifest, likewise
///     signatures/catalog.json.sig              a signed catalog's index signature
///     signatures/manifests/B-V.json.KEY.sig    each signature of the manifest
///     files/PATH                               the version's files (of the flavor), read-only
///
/// No `objects/`: the client names each file's object from the manifest.
public struct SeedFolder: Equatable, Sendable {
    public static let descriptionFile = "seed.json"
    /// The distribution the seed was exported by, in a file of its own: `seed.json`'s
    /// keys are fixed, and a zinc that knows only them reads such a seed still.
    public static let distroFile = "seed-distro.json"
    public static let filesFolder = "files"
    /// The index, gzipped as every client downloads it; its content is `catalog.json`'s bytes.
    public static let indexFile = "catalog.json.gz"
    static let formatVersion: Int64 = 1
    /// Far more than the few keys need (of `seed.json` and of `seed-distro.json`).
    public static let descriptionSizeLimit = 64 << 10

    public var catalog: String
    public var bundle: String
    public var version: Int
    /// The flavor whose files the seed holds; nil: every file of the version.
    public var flavor: String?
    /// The distribution whose version the seed holds (`seed-distro.json`), which a client
    /// started from it follows; nil for a version exported by number, or a seed written
    /// before the file: the client then follows master.
    public var distro: String?

    public init(catalog: String, bundle: String, version: Int, flavor: String? = nil, distro: String? = nil) {
        self.catalog = catalog
        self.bundle = bundle
        self.version = version
        self.flavor = flavor
        self.distro = distro
    }

    /// `manifests/B-V.json.gz`, the manifest as clients download it.
    public var manifestFile: String { VersionFiles(bundle: bundle, version: version).gzippedManifest }

    /// `seed.json`, compact with keys sorted.
    public func encoded() -> [UInt8] {
        var top: [String: JSONValue] = [
            "format": .int(Self.formatVersion), "catalog": .string(catalog), "bundle": .string(bundle),
            "version": .int(Int64(version)),
        ]
        if let flavor { top["flavor"] = .string(flavor) }
        return JSONValue.object(top).encoded()
    }

    /// `seed-distro.json`, compact with keys sorted; nil without a distribution.
    public func encodedDistro() -> [UInt8]? {
        distro.map { JSONValue.object(["format": .int(Self.formatVersion), "distro": .string($0)]).encoded() }
    }

    /// Parses `seed-distro.json` into the distribution it names, refusing another format,
    /// unknown keys and a name a catalog could not hold, as `parse` does.
    public static func parseDistro(_ bytes: [UInt8], path: String) throws -> String {
        let top = try object(bytes, path: path, keys: ["format", "distro"])
        guard let distro = top["distro"]?.stringValue else { throw ZincError.corruptFile(path: path, reason: "no string 'distro'") }
        try Names.checked(in: path) { try Names.validateDistroName(distro) }
        return distro
    }

    /// Parses `seed.json` (`distro` is nil: it comes from `seed-distro.json`), refusing
    /// another format, unknown keys and names a catalog could not hold: a client writes
    /// the repo's folders after them.
    public static func parse(_ bytes: [UInt8], path: String) throws -> SeedFolder {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        let top = try object(bytes, path: path, keys: ["format", "catalog", "bundle", "version", "flavor"])
        guard let catalog = top["catalog"]?.stringValue, let bundle = top["bundle"]?.stringValue else {
            throw corrupt("no string 'catalog' and 'bundle'")
        }
        guard let version = top["version"]?.intValue, (1...Int64(CatalogIndex.maximumVersion)).contains(version) else {
            throw corrupt("no 'version' from 1 to \(CatalogIndex.maximumVersion)")
        }
        var flavor: String?
        if let value = top["flavor"] {
            guard let name = value.stringValue else { throw corrupt("'flavor' is not a string") }
            flavor = name
        }
        try Names.checked(in: path) {
            try Names.validateCatalogID(catalog)
            try Names.validateBundleName(bundle)
            try flavor.map(Names.validateFlavorName)
        }
        return SeedFolder(catalog: catalog, bundle: bundle, version: Int(version), flavor: flavor)
    }

    /// The JSON object of a seed file within the size limit, of format 1 and with no key
    /// but `keys`.
    private static func object(_ bytes: [UInt8], path: String, keys: Set<String>) throws -> [String: JSONValue] {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard bytes.count <= descriptionSizeLimit else { throw corrupt("larger than \(descriptionSizeLimit) bytes") }
        guard let top = (try? JSONValue.parse(bytes))?.objectValue else { throw corrupt("not a JSON object") }
        guard top["format"]?.intValue == formatVersion else { throw corrupt("no 'format' 1: not a seed this zinc reads") }
        if let unknown = top.keys.sorted().first(where: { !keys.contains($0) }) { throw corrupt("unknown key '\(unknown)'") }
        return top
    }
}
