import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// How many threads may hash, compress and copy at once; nil means one per core the
    /// process may use (its affinity mask and cgroup CPU quota count), and two per core
    /// to fill archives, whose lanes mostly wait on the disk.
    /// The catalog written is the same, byte for byte, whatever the number.
    public var workers: Int?
    /// gitignore patterns of paths to leave out, after the source's `.zincignore` (see
    /// `IgnorePatterns`).
    public var excludes: [String]
    /// Leave out `IgnorePatterns.defaults` (version-control folders, desktop clutter).
    public var defaultIgnores: Bool

    public init(
        force: Bool = false, flavorspec: Flavorspec? = nil, includeMasterArchive: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil, statCacheFolder: String? = nil,
        workers: Int? = nil, excludes: [String] = [], defaultIgnores: Bool = true
    ) {
        self.excludes = excludes
        self.defaultIgnores = defaultIgnores
        self.force = force
        self.flavorspec = flavorspec
        self.includeMasterArchive = includeMasterArchive
        self.progress = progress
        self.statCacheFolder = statCacheFolder
        self.workers = workers
    }
}

/// Where an import is: which phase, and how many files and bytes of it are done.
public struct ImportProgress: Sendable {
    /// `hashing` reads every file the stat cache does not vouch for and stores the small
    /// ones the catalog lacks as it goes; `storing` stores the remaining new contents
    /// (files over 1 MiB, and files the cache vouched for).
    public enum Phase: String, Sendable { case hashing, storing }
    public let phase: Phase
    public let completedFiles: Int
    public let totalFiles: Int
    /// Bytes read or stored: in `hashing`, a file the stat cache vouches for counts as a
    /// file done but adds no bytes, so a rate computed from them is the real one.
    public let completedBytes: Int64
    public let totalBytes: Int64
}

extension ImportProgress: CountedProgress {
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64) {
        self.init(phase: phase, completedFiles: completed, totalFiles: total, completedBytes: completedBytes, totalBytes: totalBytes)
    }
}

/// Whether an import made a new version, or found its content already the latest
/// version's (unless forced).
public enum BundleUpdateResult: Equatable, Sendable {
    case created(version: Int)
    case unchanged(version: Int)
}

extension Catalog {
    /// Imports every file under `source` as a new version of bundle `name`.
    ///
    /// Heavy work happens before the writer lock: hashing every file (skipped for files
    /// the stat cache vouches for), then storing the objects the catalog lacks, on all
    /// cores, flushed as one batch while the version is written. Under the lock the
    /// version number is chosen, archives and manifest are written and flushed, and only
    /// then is the version added to the index. When the stat cache vouches for every file
    /// and was last found equal to the newest version, even the comparison with that
    /// manifest is skipped.
    public func updateBundle(
        _ name: String, from source: String,
        options: BundleUpdateOptions = BundleUpdateOptions()
    ) throws -> BundleUpdateResult {
        try importBundle(name, from: source, options: options).result
    }

    /// `updateBundle`, saying what was written.
    public func importBundle(
        _ name: String, from source: String,
        options: BundleUpdateOptions = BundleUpdateOptions()
    ) throws -> ImportSummary {
        try Names.validateBundleName(name)
        if let concern = Names.clientConcern(bundleName: name) { logger.warning("\(concern)") }
        // Before a single object is stored, not at the commit.
        try CommitSigning(catalog: self).checkUnsignedChangeAllowed()
        let tally = WriteTally()
        // The objects stored or reused below are garbage to `clean` until the manifest
        // is committed: the shared import lock keeps it waiting until then.
        return try storage.withImportLock(exclusive: false) { lock in
            switch try importFiles(name, from: source, options: options, tally: tally) {
            case .unchanged(let version, let files):
                // Nothing to write, but a re-run after a kill must leave the index's copies equal.
                try repairIndexCopies()
                return ImportSummary(
                    result: .unchanged(version: version), isNewBundle: false, files: files, newObjects: tally.files,
                    objectBytes: tally.bytes, archiveBytes: 0, bytesWritten: tally.bytes)
            case .stored(let draft, let savedCache, let comparedWith, let objectsFlush):
                let committed = Result {
                    try commitVersion(name, draft, objectsFlush, comparedWith: comparedWith, options: options, lock: lock)
                }
                // Waited for even when no manifest of this import names the objects (another
                // writer's may), since a failed write-back is reported to this flush alone.
                let flushed = Result { try objectsFlush.wait() }
                let (result, manifestSHA, newBundle) = try committed.get()
                try flushed.get()
                if let manifestSHA, let savedCache {
                    do { try savedCache.recordMatch(Self.matchDigest(manifestSHA: manifestSHA, flavorspec: options.flavorspec)) } catch {
                        logger.warning("could not update the stat cache: \(error)")
                    }
                }
                var archiveBytes: Int64 = 0
                var versionBytes: Int64 = 0
                if case .created(let version) = result {
                    let files = VersionFiles(bundle: name, version: version)
                    for flavor in [nil] + draft.flavors {
                        archiveBytes += try storage.size(of: files.archive(flavor)) ?? 0
                    }
                    for path in files.documents {
                        versionBytes += try storage.size(of: path) ?? 0
                    }
                }
                return ImportSummary(
                    result: result, isNewBundle: newBundle, files: draft.paths.count, newObjects: tally.files, objectBytes: tally.bytes,
                    archiveBytes: archiveBytes, bytesWritten: tally.bytes + archiveBytes + versionBytes)
            }
        }
    }

    /// What `importBundle` would do, without writing anything (the stat cache included).
    public func previewImport(
        _ name: String, from source: String,
        options: BundleUpdateOptions = BundleUpdateOptions()
    ) throws -> ImportPreview {
        try Names.validateBundleName(name)
        let (files, _, cached) = try scan(source, options: options)
        let hashed = try hash(files, cached: cached, options: options, tally: nil)
        let flavors = files.map { options.flavorspec?.flavors(for: $0.relativePath) }
        let store = try objects.withShardSnapshot()
        var newBytes = [SHA1.Digest: Int64]()
        for (file, digest) in zip(files, hashed.digests) where newBytes[digest] == nil {
            if try store.lookup(sha: digest.hex) == nil { newBytes[digest] = file.size }
        }
        var added = [String](), removed = [String](), changed = [String]()
        var previous: Manifest?
        if let latest = try newestManifest(name) {
            let manifest = try Manifest.parse(latest.bytes, path: latest.path)
            previous = manifest
            var seen = Set<String>()
            for (i, file) in files.enumerated() {
                seen.insert(file.relativePath)
                guard let entry = manifest.files[file.relativePath] else {
                    added.append(file.relativePath)
                    continue
                }
                if entry.object.digest != hashed.digests[i] || entry.flavors.map(Set.init) != flavors[i].map(Set.init) {
                    changed.append(file.relativePath)
                }
            }
            removed = manifest.files.keys.filter { !seen.contains($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } else {
            added = files.map(\.relativePath)
        }
        return ImportPreview(
            previousVersion: previous?.version, added: added, removed: removed, changed: changed, files: files.count,
            growth: try previewGrowth(
                name, files: files, digests: hashed.digests, flavors: flavors, newSizes: newBytes, previous: previous, store: store,
                includeMasterArchive: options.includeMasterArchive))
    }

    private enum ImportedFiles {
        case unchanged(version: Int, files: Int)
        /// Every object stored, and flushing (`objectsFlush`) while the version is
        /// written; the stat cache saved, if one is kept. The version the files were
        /// found to differ from, if the bundle had one.
        case stored(VersionDraft, savedCache: SavedStatCache?, comparedWith: Int?, objectsFlush: PendingFlush)
    }

    /// Scans, hashes and stores the tree, or finds it equal to the newest version. The
    /// per-file tables of the scan end here, before the commit builds its own.
    private func importFiles(
        _ name: String, from source: String, options: BundleUpdateOptions,
        tally: WriteTally
    ) throws -> ImportedFiles {
        let scanStart = StatCache.now()
        let (files, cache, cached) = try scan(source, options: options)
        let hashed = try hash(files, cached: cached, options: options, tally: tally)
        let digests = hashed.digests
        let flavors = files.map { options.flavorspec?.flavors(for: $0.relativePath) }
        @Sendable func save(matchedManifest: String?) -> SavedStatCache? {
            guard let cache else { return nil }
            do { return try cache.save(files, digests: digests, scanStart: scanStart, matchedManifest: matchedManifest) } catch {
                logger.warning("could not save the stat cache \(cache.file): \(error)")
                return nil
            }
        }

        var comparedWith: Int?
        if !options.force, let latest = try newestManifest(name) {
            let digest = Self.matchDigest(manifestSHA: SHA1.hash(latest.bytes), flavorspec: options.flavorspec)
            // The cache vouches for every file and says they equal this manifest: an
            // unchanged tree is known without parsing it, and nothing is written.
            if cached?.coversAll == true && cached?.matchedManifest == digest {
                return .unchanged(version: latest.version, files: files.count)
            }
            if try latest.holdsExactly(paths: files.map(\.relativePath), digest: { digests[$0] }, fileFlavors: flavors) {
                _ = save(matchedManifest: digest)
                return .unchanged(version: latest.version, files: files.count)
            }
            comparedWith = latest.version
        }
        // The stat cache is saved beside the storing, so an interrupted import still spares
        // the next one the hashing. The objects' flush starts as soon as they are stored,
        // the save perhaps still going on: a cold import of small files stores next to
        // nothing here, and its disk stayed idle while one core saved 100,000 entries.
        // Each task fills its own half of its result.
        let done = try parallelMap(count: 2, workers: options.workers) {
            task -> (savedCache: SavedStatCache?, stored: (objects: StoredObjects, flush: PendingFlush)?) in
            guard task == 1 else { return (cached?.coversAll != true ? save(matchedManifest: nil) : nil, nil) }
            let objects = try self.storeObjects(files, hashed, options: options, tally: tally)
            return (nil, (objects, self.storage.startFlush()))
        }
        let savedCache = done[0].savedCache
        let stored = done[1].stored!
        let objects = stored.objects
        let draft = VersionDraft(
            paths: files.map(\.relativePath), fileFlavors: flavors, objects: objects.objects,
            objectOfFile: objects.objectOfFile, fileSizes: files.map(\.size),
            chunkList: chunkList(name, files, hashed, objects, comparedWith: comparedWith, options: options))
        return .stored(draft, savedCache: savedCache, comparedWith: comparedWith, objectsFlush: stored.flush)
    }

    /// The files of the tree (what the ignore patterns leave in), and what the stat
    /// cache knows of them.
    private func scan(_ source: String, options: BundleUpdateOptions) throws
        -> (files: [SourceFile], cache: StatCache?, cached: StatCache.Lookup?)
    {
        let ignoring = try IgnorePatterns.forSource(source, defaults: options.defaultIgnores, excludes: options.excludes)
        let files = try SourceTree.scan(source, ignoring: ignoring, workers: options.workers) { logger.warning("\($0)") }
        let cache = options.statCacheFolder.map { StatCache(folder: $0, sourceRoot: source) }
        return (files, cache, cache?.lookup(files))
    }

    /// What the stat cache records of a manifest found equal to a tree: a digest of the
    /// manifest's SHA-1 and of the flavorspec that assigned the tree's flavors.
    private static func matchDigest(manifestSHA: String, flavorspec: Flavorspec?) -> String {
        let hasher = SHA1()
        hasher.update(Array(manifestSHA.utf8))
        hasher.update([0])
        hasher.update(flavorspec?.encoded() ?? [])
        return hasher.finalize()
    }

    /// What hashing found: each file's SHA-1 and, for the one file that stored a content
    /// while hashing it, the sizes of the stored object (`.none` for the others; nil when
    /// the stat cache vouched for every file and nothing was read); and the chunks of the
    /// files it chunked as it read them (see `chunksWhileHashing`), by file.
    private struct HashedFiles {
        let digests: [SHA1.Digest]
        let storedSizes: [StoredObject.Sizes]?
        var chunks = [Int: [ContentChunk]]()
    }

    /// The SHA-1 of every file, from the stat cache where it vouches for the file. A file
    /// small enough to be held whole is read once: hashed, then stored from memory (unless
    /// the catalog or an earlier file of the tree has that content), so a new tree of many
    /// small files is not read twice. An unchanged tree costs a lookup per such file and
    /// writes nothing. Without a `tally` to count what is written (a dry run), nothing is
    /// stored, and nothing is chunked.
    private func hash(
        _ files: [SourceFile], cached: StatCache.Lookup?, options: BundleUpdateOptions,
        tally: WriteTally?
    ) throws -> HashedFiles {
        if let cached, cached.coversAll { return HashedFiles(digests: cached.digests.map { $0! }, storedSizes: nil) }
        let chunked = Mutex([Int: [ContentChunk]]())
        let cached = cached?.digests
        // Bytes count what is read: a file the cache vouches for is done without reading it.
        let counter = ProgressCounter<ImportProgress>(
            .hashing, totalItems: files.count,
            totalBytes: files.indices.reduce(0) { cached?[$1] == nil ? $0 + files[$1].size : $0 },
            report: options.progress)
        let store = try objects.withShardSnapshot().counting(into: tally)
        // Without a tally (a dry run) nothing is stored.
        let claims = tally == nil ? nil : DigestClaims(fileCount: files.count)
        let chunking = tally != nil && Self.chunksWhileHashing(files, cached: cached, workers: options.workers)
        // Not flushed while hashing: write-back of 100,000 small objects costs a core for
        // a second or more, which the hashing needs; it overlaps the archives instead.
        let digests = try parallelMap(count: files.count, workers: options.workers) { i in
            let file = files[i]
            if let digest = cached?[i] {
                counter.finishedItem(bytes: 0)
                return digest
            }
            defer { counter.finishedItem(bytes: file.size) }
            let source = try PosixFile.openForReading(file.absolutePath)
            if chunking, file.size >= ContentChunker.threshold {
                let (digest, chunks) = try ChunkingDigest.digest(file: source)
                chunked.withLock { $0[i] = chunks }
                return digest
            }
            guard file.size <= ObjectStore.inMemoryLimit else { return try SHA1.digest(file: source) }
            let content = try ObjectStore.readWhole(source, size: file.size)
            let digest = SHA1.digest(content)
            if let claims, claims.claim(digest) {
                claims.record(try store.store(content: content, digest: digest), forFile: i)
            }
            return digest
        }
        return HashedFiles(digests: digests, storedSizes: claims?.storedSizes, chunks: chunked.withLock { $0 })
    }

    /// Whether the large files hashing reads are chunked as they are read. Chunking a
    /// file costs about two thirds of its SHA-1, and runs on a core of its own beside it
    /// (`ChunkingDigest`): while fewer large files are read than there are cores, the
    /// cores their hashing leaves idle chunk them for free. With as many or more, hashing
    /// keeps every core busy, and chunking them there made it a third longer; they are
    /// chunked after storing instead (see `chunkList`), while the version's files are
    /// written, which waits on the disk more than it uses the cores. That reads them a
    /// second time, from the page cache, unless they are too large to stay there: then
    /// hashing waits on the disk, which leaves the cores free to chunk them after all.
    private static func chunksWhileHashing(_ files: [SourceFile], cached: [SHA1.Digest?]?, workers: Int?) -> Bool {
        let large = files.indices.filter { files[$0].size >= ContentChunker.threshold && cached?[$0] == nil }
        guard large.count >= (workers ?? AvailableCores.count) else { return true }
        let bytes = large.reduce(UInt64(0)) { $0 + UInt64(files[$1].size) }
        return bytes > ProcessInfo.processInfo.physicalMemory / 4
    }

    /// The distinct objects of an import (in SHA-1 order), per file the index of its
    /// object among them, per object the first file with its content, and the chunks of
    /// the objects stored now with chunks, by object.
    private struct StoredObjects {
        let objects: [StoredObject]
        let objectOfFile: [Int]
        let firstFiles: [Int]
        let chunks: [Int: ObjectChunks]
    }

    /// Stores each distinct content once, in parallel, except those stored while hashing.
    /// Contents are told apart by sorting file numbers by digest: a table keyed by digest
    /// would take 8 MB for 100,000 files, when memory is tightest.
    private func storeObjects(
        _ files: [SourceFile], _ hashed: HashedFiles, options: BundleUpdateOptions,
        tally: WriteTally
    ) throws -> StoredObjects {
        let digests = hashed.digests
        let (objectOfFile, firstFiles, storingFiles) = Self.distinctContents(hashed)
        let pending = storingFiles.indices.filter { storingFiles[$0] < 0 }
        let counter = ProgressCounter<ImportProgress>(
            .storing, totalItems: pending.count,
            totalBytes: pending.reduce(0) { $0 + files[firstFiles[$1]].size }, report: options.progress)
        let store = try objects.withShardSnapshot().counting(into: tally)
        @Sendable func storeObject(_ p: Int, deflate: ObjectStore.Deflate) throws -> ObjectStore.Stored? {
            let first = firstFiles[pending[p]]
            let file = files[first]
            // A gzipped object gets its flush points from the chunks; a file not chunked
            // while hashing is chunked just before it is deflated.
            let chunking = file.size < ContentChunker.threshold ? nil : { try hashed.chunks[first] ?? Self.chunks(of: file) }
            let stored = try store.store(
                localPath: file.absolutePath, digest: digests[first], stamp: file.stamp, deflate: deflate, chunking: chunking)
            if stored != nil { counter.finishedItem(bytes: file.size) }
            return stored
        }
        var stored = try parallelMap(count: pending.count, workers: options.workers) { p in
            try storeObject(p, deflate: .onThisThreadOrDefer)
        }
        // Huge files to deflate, one after another, each on every core.
        for p in stored.indices where stored[p] == nil {
            stored[p] = try storeObject(p, deflate: .onCores(options.workers))
        }
        var chunks = [Int: ObjectChunks]()
        for (p, object) in pending.enumerated() {
            if let layout = stored[p]!.chunks { chunks[object] = layout }
        }
        var storedNow = stored.lazy.map { $0!.object }.makeIterator()
        let distinct = storingFiles.map { i in
            i < 0 ? storedNow.next()! : StoredObject(digest: digests[i], sizes: hashed.storedSizes![i])
        }
        return StoredObjects(objects: distinct, objectOfFile: objectOfFile, firstFiles: firstFiles, chunks: chunks)
    }

    /// The distinct contents of the hashed files, in SHA-1 order: per file the index of
    /// its content, and per content the first file with it and the file that stored it
    /// while hashing, or -1.
    private static func distinctContents(_ hashed: HashedFiles) -> (objectOfFile: [Int], firstFiles: [Int], storingFiles: [Int]) {
        let digests = hashed.digests
        var objectOfFile = [Int](repeating: 0, count: digests.count)
        var firstFiles = [Int]()
        var storingFiles = [Int]()
        let byDigest = digests.indices.sorted { digests[$0] < digests[$1] || (digests[$0] == digests[$1] && $0 < $1) }
        for (position, i) in byDigest.enumerated() {
            if position == 0 || digests[byDigest[position - 1]] != digests[i] {
                firstFiles.append(i)
                storingFiles.append(-1)
            }
            objectOfFile[i] = firstFiles.count - 1
            if let sizes = hashed.storedSizes?[i], sizes != .none { storingFiles[firstFiles.count - 1] = i }
        }
        return (objectOfFile, firstFiles, storingFiles)
    }

    /// The chunk list of a version: each object of `ContentChunker.threshold` bytes or
    /// more, where its chunks are in its stored bytes. An object stored now as gzip was
    /// chunked as it was stored; one stored before keeps what the newest version's list
    /// says of it, if that still fits it. A raw object otherwise takes the chunks hashing
    /// found, or is chunked afresh from its source file, on threads of their own while
    /// the version's files are written: the list is waited for (`VersionDraft.chunkList`)
    /// just before it is written. A gzipped object stored before, without flush points,
    /// has no chunks: clients fetch it whole.
    private func chunkList(
        _ name: String, _ files: [SourceFile], _ hashed: HashedFiles, _ stored: StoredObjects, comparedWith: Int?,
        options: BundleUpdateOptions
    ) -> @Sendable () throws -> ChunkList {
        let large = stored.objects.indices.filter { files[stored.firstFiles[$0]].size >= ContentChunker.threshold }
        guard !large.isEmpty else { return { ChunkList() } }
        let previous = comparedWith.flatMap { try? readChunkList(bundle: name, version: $0) } ?? ChunkList()
        var list = ChunkList()
        var unchunked = [(digest: SHA1.Digest, file: SourceFile)]()
        for o in large {
            let object = stored.objects[o]
            let first = stored.firstFiles[o]
            if let layout = stored.chunks[o] ?? previous.objects[object.digest], layout.fits(object) {
                list.objects[object.digest] = layout
            } else if object.formats[.raw] != nil {
                if let chunks = hashed.chunks[first] {
                    list.objects[object.digest] = ObjectChunks(raw: chunks)
                } else {
                    unchunked.append((object.digest, files[first]))
                }
            }
        }
        guard !unchunked.isEmpty else { return { [list] in list } }
        let chunked = BackgroundValue { [unchunked] in
            Result {
                try parallelMap(count: unchunked.count, workers: options.workers) { try Self.chunks(of: unchunked[$0].file) }
            }
        }
        return { [list, unchunked] in
            var complete = list
            for (object, chunks) in zip(unchunked, try chunked.value.get()) {
                complete.objects[object.digest] = ObjectChunks(raw: chunks)
            }
            return complete
        }
    }

    /// The chunks of a source file, read once more: its content is the one hashed as long
    /// as the file is, by its stamp, the one the scan saw.
    static func chunks(of file: SourceFile) throws -> [ContentChunk] {
        let source = try PosixFile.openForReading(file.absolutePath)
        var splitter = ChunkSplitter()
        try SparseReader(source).forEachChunk { splitter.update($0) }
        try ObjectStore.checkUnchanged(source, since: file.stamp)
        return splitter.finish()
    }

    /// The newest version of bundle `name` and its manifest's JSON, or nil when it has
    /// none. A delete_bundle may remove it meanwhile, which only means the tree is not
    /// unchanged (the commit checks again against the index it commits to).
    private func newestManifest(_ name: String) throws -> StoredManifest? {
        guard let version = try index().bundles[name]?.latestVersion else { return nil }
        return try storedManifest(name, version: version)
    }

    /// Version `version` of bundle `name` as its manifest's JSON, or nil when it cannot
    /// be read.
    func storedManifest(_ name: String, version: Int) throws -> StoredManifest? {
        guard let (bytes, path) = try? manifestBytes(bundle: name, version: version) else { return nil }
        return StoredManifest(version: version, bytes: bytes, path: path)
    }
}
