import Logging

/// A Zinc catalog: the entry point for everything that reads or changes one.
public final class Catalog: @unchecked Sendable {
    public let storage: CatalogStorage
    public let config: CatalogConfig
    public let logger: Logger

    public var objects: ObjectStore { ObjectStore(storage: storage, config: config) }

    private init(storage: CatalogStorage, config: CatalogConfig, logger: Logger) {
        self.storage = storage
        self.config = config
        self.logger = logger
    }

    /// Opens an existing catalog, checking that its index is one this tool understands.
    public static func open(_ storage: CatalogStorage, logger: Logger = Logger(label: "zinc")) throws -> Catalog {
        let config = try storage.read(CatalogConfig.path).map { try CatalogConfig.parse($0, path: CatalogConfig.path) } ?? .standard
        let catalog = Catalog(storage: storage, config: config, logger: logger)
        _ = try catalog.index()
        return catalog
    }

    public static func open(at location: CatalogLocation, logger: Logger = Logger(label: "zinc")) throws -> Catalog {
        try open(FileStorage(root: location.rootPath), logger: logger)
    }

    /// Creates an empty catalog: `config.json`, then the four index files. Refuses when
    /// any catalog file is already there, changing nothing.
    public static func create(id: String, in storage: CatalogStorage, logger: Logger = Logger(label: "zinc")) throws -> Catalog {
        try Names.validateCatalogID(id)
        for name in CatalogIndex.fileNames + [CatalogConfig.path] where try storage.exists(name) {
            throw ZincError.catalogExists(storage.location)
        }
        let catalog = Catalog(storage: storage, config: .standard, logger: logger)
        guard try storage.write(CatalogConfig.standard.encoded(), to: CatalogConfig.path, .ifAbsent) == .written else {
            throw ZincError.catalogExists(storage.location)
        }
        try storage.flush()
        try catalog.createIndex(CatalogIndex(id: id))
        return catalog
    }

    // MARK: Manifests

    public func manifest(bundle: String, version: Int) throws -> Manifest {
        let (bytes, path) = try manifestBytes(bundle: bundle, version: version)
        return try Manifest.parse(bytes, path: path)
    }

    /// The JSON of a version's manifest and where it came from (for messages).
    func manifestBytes(bundle: String, version: Int) throws -> (bytes: [UInt8], path: String) {
        let path = Manifest.path(bundle: bundle, version: version)
        if let bytes = try storage.read(path) { return (bytes, storage.location + "/" + path) }
        // Some writers publish only the gzipped manifest.
        if let gz = try storage.read(path + ".gz") {
            do { return (try GzipDecompressor.decompress(gz), storage.location + "/" + path + ".gz") } catch {
                throw ZincError.corruptFile(path: storage.location + "/" + path + ".gz", reason: "not a valid gzip stream")
            }
        }
        throw ZincError.versionNotFound(bundle: bundle, version: "\(version) (its manifest is missing)")
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

    /// Writes a manifest and its gzipped copy to `path` (and `path`.gz), both streamed
    /// as `encode` hands over the JSON; returns the SHA-1 of the JSON.
    func writeManifest(_ path: String, encode: (([UInt8]) throws -> Void) throws -> Void) throws -> String {
        let json = try storage.makeWriter(for: path)
        defer { json.discard() }
        let gz = try storage.makeWriter(for: path + ".gz")
        defer { gz.discard() }
        let compressor = GzipCompressor { try gz.write($0) }
        let hasher = SHA1()
        try encode { piece in
            try json.write(piece)
            try piece.withUnsafeBytes { try compressor.update($0) }
            hasher.update(piece)
        }
        try compressor.finish()
        // Create-only: a manifest's name is cached as immutable, and its version number
        // was reserved for this writer alone.
        for writer in [json, gz] {
            guard try writer.commit(.ifAbsent) == .written else {
                throw ZincError.conflict("'\(storage.location)/\(writer.path)' already exists; another writer used this version number")
            }
        }
        return hasher.finalize()
    }

    // MARK: Archives

    public static func archivePath(bundle: String, version: Int, flavor: String? = nil) -> String {
        "archives/\(bundle)-\(version)\(flavor.map { "~" + $0 } ?? "").tar"
    }

    /// The archives a version should have: the all-files archive when it has more than
    /// one file (skipped with flavors unless asked for), and one per flavor with more
    /// than one file. nil stands for the all-files archive.
    public static func archiveScopes(of manifest: Manifest, includeMasterArchive: Bool) -> [String?] {
        archiveScopes(flavors: manifest.flavors, includeMasterArchive: includeMasterArchive) { flavor in
            manifest.files.values.count { $0.isIn(flavor: flavor) }
        }
    }

    /// `archiveScopes(of:)` for a version given by its flavors and how many files the
    /// whole version (nil) and each flavor hold.
    static func archiveScopes(flavors: [String], includeMasterArchive: Bool, fileCount: (String?) -> Int) -> [String?] {
        var scopes = [String?]()
        if (flavors.isEmpty || includeMasterArchive) && fileCount(nil) > 1 { scopes.append(nil) }
        for flavor in flavors where fileCount(flavor) > 1 { scopes.append(flavor) }
        return scopes
    }

    /// The members of an archive of version `version` in LMFO order, given its objects
    /// (repeats allowed) and the versions that exist before it. Kept as arrays sorted by
    /// sha rather than tables keyed by it: a version of 100,000 files is at its largest
    /// in memory while its archives are planned.
    func archiveMembers(of objects: [StoredObject], bundle: String, version: Int, flavor: String?,
                        earlierVersions: [Int]) throws -> [StoredObject] {
        var objects = objects
        objects.sort { $0.digest < $1.digest }
        var distinct = 0
        for i in objects.indices where distinct == 0 || objects[distinct - 1].digest != objects[i].digest {
            objects[distinct] = objects[i]
            distinct += 1
        }
        objects.removeLast(objects.count - distinct)
        let order = try LMFOOrder.positions(sorted: objects.map(\.digest), version: version,
                                            earlierVersions: earlierVersions) { earlier in
            try objectDigests(bundle: bundle, version: earlier, flavor: flavor)
        }
        return order.map { objects[$0] }
    }

    /// Writes one archive: a ustar member per object, named like the object's file,
    /// holding the object's stored bytes (copied in the kernel, members in parallel).
    /// Members go out in batches so memory stays flat however many objects there are.
    func writeArchive(_ path: String, members: [StoredObject], workers: Int?, condition: WriteCondition) throws {
        let writer = try storage.makeWriter(for: path)
        defer { writer.discard() }
        var padding = [UInt8]()  // the previous member's padding goes out with the next header
        try storage.withBackgroundFlushes {
            for start in stride(from: 0, to: members.count, by: 1024) {
                var pieces = [WritePiece]()
                for member in members[start..<min(start + 1024, members.count)] {
                    pieces.append(.bytes(padding + (try TarHeader.encode(name: member.fileName, size: member.preferredSize))))
                    pieces.append(.storedFile(path: member.preferredPath, size: member.preferredSize))
                    padding = [UInt8](repeating: 0, count: Int(TarHeader.paddedLength(member.preferredSize) - member.preferredSize))
                }
                do {
                    try writer.append(pieces: pieces, workers: workers)
                } catch let mismatch as WritePieceMismatch {
                    throw ZincError.integrity(path: storage.location + "/" + mismatch.path,
                                              reason: "its size is \(mismatch.actual) bytes, the catalog recorded \(mismatch.expected)")
                }
            }
        }
        try writer.write(padding + [UInt8](repeating: 0, count: 2 * TarHeader.blockSize))
        guard try writer.commit(condition) == .written else {
            throw ZincError.conflict("'\(storage.location)/\(path)' already exists; another writer used this version number")
        }
    }
}
