import Logging

/// A Zinc catalog: the entry point for everything that reads or changes one.
public final class Catalog: Sendable {
    public let storage: CatalogStorage
    public let config: CatalogConfig
    public let logger: Logger
    /// Signs what this catalog's writes add to the index (see `CommitSigning.signBeforeCommit`); nil
    /// writes no signature.
    public let signer: CatalogSigner?
    /// Whether a change to the index of a signed catalog may be made without `signer`.
    /// When false (the default) such a change is refused with
    /// `ZincError.signedCatalogNeedsSigner`: clients that trust the catalog's key would
    /// refuse the unsigned index until someone signs it again.
    public let allowsUnsignedChanges: Bool

    /// The object store; on a remote store, one that assembles large objects there from
    /// bytes it holds (see `StoreAssembly`).
    package var objects: ObjectStore {
        var store = ObjectStore(storage: storage, config: config)
        if storage.properties.isRemote { store.assembly = StoreAssembly(catalog: self) }
        return store
    }

    /// What this catalog's writes assembled in its store, and whether its refusal to copy
    /// parts was said (once a run).
    let assemblyTally = AssemblyTally()

    /// How long a client or CDN may keep a copy of the index: the `max-age` FORMAT.md
    /// asks hosts to serve the four index files with. A clean keeps what left the index
    /// for at least this long (see ``CatalogClean``).
    public static let indexCacheLifetime: Duration = .seconds(300)

    init(
        storage: CatalogStorage, config: CatalogConfig, logger: Logger, signer: CatalogSigner? = nil,
        allowsUnsignedChanges: Bool = false
    ) {
        self.storage = storage
        self.config = config
        self.logger = logger
        self.signer = signer
        self.allowsUnsignedChanges = allowsUnsignedChanges
    }

    /// Opens an existing catalog, checking that its index is one this tool understands.
    /// With `signer`, every change it makes to the index is signed; without one, a signed
    /// catalog's index is changed only with `allowsUnsignedChanges`.
    public static func open(
        _ storage: CatalogStorage, logger: Logger = Logger(label: "zinc"),
        signer: CatalogSigner? = nil, allowsUnsignedChanges: Bool = false
    ) throws -> Catalog {
        let config = try storage.read(CatalogConfig.path).map { try CatalogConfig.parse($0, path: CatalogConfig.path) } ?? .standard
        let catalog = Catalog(
            storage: storage, config: config, logger: logger, signer: signer, allowsUnsignedChanges: allowsUnsignedChanges)
        if let recovery = try catalog.readIndex().recovery {
            logger.warning(
                """
                '\(storage.location)/catalog.json' is damaged (\(recovery.damage)); read \(recovery.source) instead. \
                \(IndexRecovery.repairHint(for: storage.location)) repairs it, as does the next command that changes the catalog
                """)
        }
        return catalog
    }

    /// Opens the catalog in the local folder `location`.
    public static func open(at location: CatalogLocation, logger: Logger = Logger(label: "zinc")) throws -> Catalog {
        try open(FileStorage(root: location.rootPath), logger: logger)
    }

    /// Creates an empty catalog: `config.json`, then the four index files. Refuses when
    /// any catalog file is already there, changing nothing.
    public static func create(
        id: String, in storage: CatalogStorage, logger: Logger = Logger(label: "zinc"),
        signer: CatalogSigner? = nil
    ) throws -> Catalog {
        try Names.validateCatalogID(id)
        for name in CatalogIndex.fileNames + [CatalogConfig.path] where try storage.exists(name) {
            throw ZincError.catalogExists(storage.location)
        }
        let catalog = Catalog(storage: storage, config: .standard, logger: logger, signer: signer)
        guard try storage.write(CatalogConfig.standard.encoded(), to: CatalogConfig.path, .ifAbsent) == .written else {
            throw ZincError.catalogExists(storage.location)
        }
        try storage.flush()
        try catalog.createIndex(CatalogIndex(id: id))
        return catalog
    }

    // MARK: Manifests

    /// The manifest of one version of a bundle, read and validated.
    package func manifest(bundle: String, version: Int) throws -> Manifest {
        let (bytes, path) = try manifestBytes(bundle: bundle, version: version)
        return try Manifest.parse(bytes, path: path)
    }

    /// The JSON of a version's manifest and where it came from (for messages).
    func manifestBytes(bundle: String, version: Int) throws -> (bytes: [UInt8], path: String) {
        let files = VersionFiles(bundle: bundle, version: version)
        if let bytes = try storage.read(files.manifest) { return (bytes, storage.location + "/" + files.manifest) }
        // Some writers publish only the gzipped manifest.
        if let gz = try storage.read(files.gzippedManifest) {
            let location = storage.location + "/" + files.gzippedManifest
            do { return (try GzipDecompressor.decompress(gz), location) } catch {
                throw ZincError.corruptFile(path: location, reason: "not a valid gzip stream")
            }
        }
        throw ZincError.versionNotFound(bundle: bundle, version: "\(version) (its manifest is missing)")
    }

    /// The chunk list of a version, nil when it has none (versions written before chunk
    /// lists, or by other tools).
    package func readChunkList(bundle: String, version: Int) throws -> ChunkList? {
        try readGzippedDocument(VersionFiles(bundle: bundle, version: version).chunkList, parse: ChunkList.parse)
    }

    /// A version's manifest chunk description (`ManifestChunks`); nil when it has none.
    public func readManifestChunks(bundle: String, version: Int) throws -> ManifestChunks? {
        try readGzippedDocument(VersionFiles(bundle: bundle, version: version).manifestChunks) { json, location in
            try ManifestChunks.parse(json, path: location, bundle: bundle, version: version)
        }
    }

    /// The description of a version's digest list's chunks (`DigestList`), nil when it has none.
    func readDigestListChunks(bundle: String, version: Int) throws -> ManifestChunks? {
        let files = VersionFiles(bundle: bundle, version: version)
        return try readGzippedDocument(files.digestListChunks) { json, location in
            try ManifestChunks.parse(json, path: location, files: [files.digestList])
        }
    }

    /// A version's plain digest list (`DigestList`), nil when it has none.
    func readDigestList(bundle: String, version: Int) throws -> [UInt8]? {
        try readGzippedDocument(VersionFiles(bundle: bundle, version: version).digestList) { plain, _ in plain }
    }

    /// A version's chunk list for pricing: none when it has none or it cannot be read
    /// (clients then fetch whole objects too).
    func chunkList(of manifest: Manifest) -> ChunkList? {
        try? readChunkList(bundle: manifest.bundle, version: manifest.version)
    }

    /// The sizes file of a version, nil when it has none (versions written before sizes
    /// files, by other tools, or whose objects are all raw).
    public func readContentSizes(bundle: String, version: Int) throws -> ContentSizes? {
        try readGzippedDocument(VersionFiles(bundle: bundle, version: version).contentSizes, parse: ContentSizes.parse)
    }

    /// A version's sizes file for reports: none when it has none or it cannot be read
    /// (its gzipped files' content sizes then show as not recorded; `verify` names the damage).
    package func contentSizes(of manifest: Manifest) -> ContentSizes? {
        try? readContentSizes(bundle: manifest.bundle, version: manifest.version)
    }

    /// A gzipped JSON document of the catalog, gunzipped and parsed; nil when absent.
    private func readGzippedDocument<Document>(
        _ path: String, parse: ([UInt8], String) throws -> Document
    ) throws -> Document? {
        guard let gz = try storage.read(path) else { return nil }
        let location = storage.location + "/" + path
        let json: [UInt8]
        do { json = try GzipDecompressor.decompress(gz) } catch {
            throw ZincError.corruptFile(path: location, reason: "not a valid gzip stream")
        }
        return try parse(json, location)
    }

    /// The objects of one version in one archive scope (whole bundle or one flavor), read
    /// from its manifest as it is parsed rather than through a `Manifest`'s table.
    func objectDigests(bundle: String, version: Int, flavor: String?) throws -> Set<SHA1.Digest> {
        let (bytes, path) = try manifestBytes(bundle: bundle, version: version)
        var digests = Set<SHA1.Digest>()
        _ = try Manifest.parse(bytes, path: path) { _, entry in
            if entry.isIn(flavor: flavor) { digests.insert(entry.object.digest) }
        }
        return digests
    }
}
