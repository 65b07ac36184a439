import Foundation

/// Options of `update_bundle`.
public struct BundleUpdateOptions: Sendable {
    /// Create a version even when the files equal the newest version's.
    public var force: Bool
    public var flavorspec: Flavorspec?
    /// With flavors, also write the all-files archive.
    public var includeMasterArchive: Bool
    /// Told about each file as it is hashed and stored, for progress displays.
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Where to keep the stat cache (see `StatCache`); nil hashes every file every time.
    public var statCacheFolder: String?

    public init(force: Bool = false, flavorspec: Flavorspec? = nil, includeMasterArchive: Bool = false,
                progress: (@Sendable (ImportProgress) -> Void)? = nil, statCacheFolder: String? = nil) {
        self.force = force
        self.flavorspec = flavorspec
        self.includeMasterArchive = includeMasterArchive
        self.progress = progress
        self.statCacheFolder = statCacheFolder
    }
}

/// Where an import is: which phase, and how many files and bytes of it are done.
public struct ImportProgress: Sendable {
    public enum Phase: String, Sendable { case hashing, storing }
    public let phase: Phase
    public let completedFiles: Int
    public let totalFiles: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
}

extension ImportProgress: CountedProgress {
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64) {
        self.init(phase: phase, completedFiles: completed, totalFiles: total, completedBytes: completedBytes, totalBytes: totalBytes)
    }
}

public enum BundleUpdateResult: Equatable, Sendable {
    case created(version: Int)
    case unchanged(version: Int)
}

extension Catalog {
    /// Imports every file under `source` as a new version of bundle `name`.
    ///
    /// Heavy work happens before the writer lock: hashing every file (skipped for files
    /// the stat cache vouches for), then storing the objects the catalog lacks, on all
    /// cores and flushed as one batch. Under the lock the version number is chosen,
    /// archives and manifest are written and flushed, and only then is the version
    /// added to the index. When the stat cache vouches for every file and was last found
    /// equal to the newest version, even the comparison with that manifest is skipped.
    public func updateBundle(_ name: String, from source: String,
                             options: BundleUpdateOptions = BundleUpdateOptions()) throws -> BundleUpdateResult {
        try Names.validateBundleName(name)
        // The objects stored or reused below are garbage to `clean` until the manifest
        // is committed: the shared import lock keeps it waiting until then.
        return try storage.withImportLock(exclusive: false) {
            let scanStart = StatCache.now()
            let files = try SourceTree.scan(source) { logger.warning("\($0)") }
            let cache = options.statCacheFolder.map { StatCache(folder: $0, sourceRoot: source) }
            let cached = cache?.lookup(files)
            let shas = try hash(files, cached: cached?.shas, progress: options.progress)
            let flavors = files.map { options.flavorspec?.flavors(for: $0.relativePath) }
            // Saved once the outcome is known, naming the manifest the tree equals. An
            // unchanged tree whose cache already says so writes nothing at all.
            func remember(matchedManifest: String?) {
                guard let cache, cached?.coversAll != true || cached?.matchedManifest != matchedManifest else { return }
                do { try cache.save(files, shas: shas, scanStart: scanStart, matchedManifest: matchedManifest) } catch {
                    logger.warning("could not save the stat cache \(cache.file): \(error)")
                }
            }

            if !options.force, let latest = try newestManifest(name) {
                let digest = Self.matchDigest(manifest: latest.bytes, flavorspec: options.flavorspec)
                if cached?.coversAll == true && cached?.matchedManifest == digest { return .unchanged(version: latest.version) }
                if try latest.holdsExactly(files, shas: shas, flavors: flavors) {
                    remember(matchedManifest: digest)
                    return .unchanged(version: latest.version)
                }
            }
            let stored = try storeObjects(files, shas: shas, progress: options.progress)
            try storage.flush()

            var entries = [String: Manifest.Entry]()
            var flavorOrder = [String]()
            for (i, file) in files.enumerated() {
                entries[file.relativePath] = Manifest.Entry(object: stored[shas[i]]!, flavors: flavors[i])
                for flavor in flavors[i] ?? [] where !flavorOrder.contains(flavor) { flavorOrder.append(flavor) }
            }
            let (result, written) = try commitVersion(name, entries: entries, flavors: flavorOrder, options: options)
            remember(matchedManifest: written.map { Self.matchDigest(manifest: $0, flavorspec: options.flavorspec) })
            return result
        }
    }

    /// What the stat cache records of a manifest found equal to a tree: a digest of its
    /// bytes and of the flavorspec that assigned the tree's flavors.
    private static func matchDigest(manifest: [UInt8], flavorspec: Flavorspec?) -> String {
        let hasher = SHA1()
        hasher.update(manifest)
        hasher.update([0])
        hasher.update(flavorspec?.encoded() ?? [])
        return hasher.finalize()
    }

    /// The SHA-1 of every file, from the stat cache where it vouches for the file.
    private func hash(_ files: [SourceFile], cached: [String?]?, progress: (@Sendable (ImportProgress) -> Void)?) throws -> [String] {
        let counter = ProgressCounter<ImportProgress>(.hashing, totalItems: files.count,
                                                      totalBytes: files.reduce(0) { $0 + $1.size }, report: progress)
        return try parallelMap(count: files.count) { i in
            let file = files[i]
            let sha = try cached?[i] ?? SHA1.hash(file: PosixFile.open(file.absolutePath))
            counter.finishedItem(bytes: file.size)
            return sha
        }
    }

    /// Stores each distinct content once, on all cores; returns the stored form by sha.
    private func storeObjects(_ files: [SourceFile], shas: [String],
                              progress: (@Sendable (ImportProgress) -> Void)?) throws -> [String: StoredObject] {
        var firstFileOfObject = [String: Int]()
        for (i, sha) in shas.enumerated() where firstFileOfObject[sha] == nil { firstFileOfObject[sha] = i }
        let uniqueFiles = firstFileOfObject.values.sorted()
        let counter = ProgressCounter<ImportProgress>(.storing, totalItems: uniqueFiles.count,
                                                      totalBytes: uniqueFiles.reduce(0) { $0 + files[$1].size }, report: progress)
        let store = try objects.withShardSnapshot()
        let stored = try storage.withBackgroundFlushes {
            try parallelMap(count: uniqueFiles.count) { k in
                let file = files[uniqueFiles[k]]
                let object = try store.store(localPath: file.absolutePath, sha: shas[uniqueFiles[k]], size: file.size)
                counter.finishedItem(bytes: file.size)
                return object
            }
        }
        return Dictionary(uniqueKeysWithValues: stored.map { ($0.sha, $0) })
    }

    /// Under the writer lock: picks the version number, writes archives then manifest
    /// (each batch flushed), then adds the version to the index. Returns the manifest's
    /// JSON too when this call wrote it.
    private func commitVersion(_ name: String, entries: [String: Manifest.Entry], flavors: [String],
                               options: BundleUpdateOptions) throws -> (BundleUpdateResult, manifest: [UInt8]?) {
        try storage.withExclusiveLock {
            let index = try self.index()
            let bundle = index.bundles[name] ?? CatalogIndex.BundleEntry()
            let manifest = Manifest(catalog: index.id, bundle: name, version: bundle.nextVersion + 1,
                                    flavors: flavors, files: entries)
            // Another writer may have committed the same content while we were importing.
            if !options.force, let latest = bundle.latestVersion,
               try self.manifest(bundle: name, version: latest).sameContent(as: manifest) {
                return (.unchanged(version: latest), nil)
            }
            for scope in Catalog.archiveScopes(of: manifest, includeMasterArchive: options.includeMasterArchive) {
                let members = try archiveMembers(of: manifest, flavor: scope, earlierVersions: bundle.versions)
                try writeArchive(Catalog.archivePath(bundle: name, version: manifest.version, flavor: scope), members: members)
            }
            try storage.flush()
            let json = try writeManifest(manifest)
            try storage.flush()
            try updateIndexLocked { index in
                var entry = index.bundles[name] ?? CatalogIndex.BundleEntry()
                entry.versions = (entry.versions + [manifest.version]).sorted()
                entry.nextVersion = max(entry.nextVersion, manifest.version)
                index.bundles[name] = entry
            }
            return (.created(version: manifest.version), json)
        }
    }

    /// The newest version of bundle `name` and its manifest's JSON, or nil when it has
    /// none. Read outside the writer lock: a delete_bundle may remove it meanwhile, which
    /// only means the tree is not unchanged (commitVersion checks again under the lock).
    private func newestManifest(_ name: String) throws -> NewestManifest? {
        guard let version = try index().bundles[name]?.latestVersion,
              let (bytes, path) = try? manifestBytes(bundle: name, version: version) else { return nil }
        return NewestManifest(version: version, bytes: bytes, path: path)
    }
}

private struct NewestManifest {
    let version: Int
    let bytes: [UInt8]
    let path: String

    /// Whether it holds exactly these files (paths, content, flavors). Compared entry by
    /// entry as it is parsed, never held as a table.
    func holdsExactly(_ files: [SourceFile], shas: [String], flavors: [[String]?]) throws -> Bool {
        let position = Dictionary(files.enumerated().map { ($1.relativePath, $0) }, uniquingKeysWith: { first, _ in first })
        var matched = 0
        var same = true
        _ = try Manifest.parse(bytes, path: path) { filePath, entry in
            guard same, let i = position[filePath], entry.sha == shas[i], (entry.flavors ?? []) == (flavors[i] ?? []) else {
                same = false
                return
            }
            matched += 1
        }
        return same && matched == files.count
    }
}
