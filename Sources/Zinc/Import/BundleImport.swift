import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Imports every file under `source` as a new version of bundle `bundle`
/// (`update_bundle`).
///
/// Heavy work happens before the writer lock: hashing every file (skipped for files the
/// stat cache vouches for), then storing the objects the catalog lacks, on all cores,
/// flushed as one batch while the version is written. Under the lock the version number
/// is chosen, archives and manifest are written and flushed, and only then is the
/// version added to the index (see `VersionCommit`). When the stat cache vouches for
/// every file and was last found equal to the newest version, even the comparison with
/// that manifest is skipped.
///
/// ``preview()`` does the scan and the hashing and compares the tree with the newest
/// version, writing nothing. It is not a plan ``run()`` carries out: what is left to
/// decide after the hashing (the version number, whether the tree equals the newest
/// version) is decided under the index's compare-and-swap at the commit, where a plan
/// made earlier would already be stale.
public struct BundleImport: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let source: String
    private let options: BundleImportOptions

    /// - Parameters:
    ///   - catalog: the catalog to import into.
    ///   - bundle: the bundle's name; a new name makes a new bundle.
    ///   - source: the folder whose files make the version.
    ///   - options: force, flavors, ignore patterns, the stat cache, progress and threads.
    public init(_ catalog: Catalog, bundle: String, from source: String, options: BundleImportOptions = BundleImportOptions()) {
        self.catalog = catalog
        self.bundle = bundle
        self.source = source
        self.options = options
    }

    /// What ``run()`` would do now, without writing anything (the stat cache included).
    public func preview() throws -> ImportPreview {
        try Names.validateBundleName(bundle)
        let tree = try scan()
        let files = tree.files
        let hashed = try hash(files, cached: tree.cached, tally: nil)
        let flavors = files.map { options.flavorspec?.flavors(for: $0.relativePath) }
        let store = try catalog.objects.withShardSnapshot()
        var newBytes = [SHA1.Digest: Int64]()
        for (file, digest) in zip(files, hashed.digests) where newBytes[digest] == nil {
            if try store.lookup(sha: digest.hex) == nil { newBytes[digest] = file.size }
        }
        var added = [String](), removed = [String](), changed = [String]()
        var previous: Manifest?
        if let latest = try newestManifest() {
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
            growth: try catalog.previewGrowth(
                bundle, files: files, digests: hashed.digests, flavors: flavors, newSizes: newBytes, previous: previous, store: store,
                includeMasterArchive: options.includeMasterArchive))
    }

    /// Imports the tree, or finds it equal to the newest version (unless forced), and
    /// says what was written.
    @discardableResult
    public func run() throws -> ImportSummary {
        try Names.validateBundleName(bundle)
        if let concern = Names.clientConcern(bundleName: bundle) { catalog.logger.warning("\(concern)") }
        // Before a single object is stored, not at the commit.
        try CommitSigning(catalog: catalog).checkUnsignedChangeAllowed()
        let tally = WriteTally()
        // The objects stored or reused below are garbage to `clean` until the manifest
        // is committed: the shared import lock keeps it waiting until then.
        return try catalog.storage.withImportLock(exclusive: false) { lock in
            switch try importFiles(tally: tally) {
            case .unchanged(let version, let files):
                // Nothing to write, but a re-run after a kill must leave the index's copies equal.
                try catalog.repairIndexCopies()
                return ImportSummary(
                    result: .unchanged(version: version), isNewBundle: false, files: files, newObjects: tally.files,
                    objectBytes: tally.bytes, archiveBytes: 0, bytesWritten: tally.bytes)
            case .stored(let tree):
                return try commit(tree, tally: tally, lock: lock)
            }
        }
    }

    private enum ImportedFiles {
        case unchanged(version: Int, files: Int)
        case stored(StoredTree)
    }

    /// A tree whose every object is stored: the version it makes, before it has a
    /// number; the stat cache saved, if one is kept; the version the files were found to
    /// differ from, if the bundle had one; and the objects' flush, going on while the
    /// version is written.
    private struct StoredTree {
        let draft: VersionDraft
        let savedCache: SavedStatCache?
        let comparedWith: Int?
        let objectsFlush: PendingFlush
    }

    /// Scans, hashes and stores the tree, or finds it equal to the newest version. The
    /// per-file tables of the scan end here, before the commit builds its own.
    private func importFiles(tally: WriteTally) throws -> ImportedFiles {
        let scanStart = StatCache.now()
        let tree = try scan()
        let files = tree.files
        let hashed = try hash(files, cached: tree.cached, tally: tally)
        let digests = hashed.digests
        let flavors = files.map { options.flavorspec?.flavors(for: $0.relativePath) }
        let cache = tree.cache
        let logger = catalog.logger
        @Sendable func save(matchedManifest: String?) -> SavedStatCache? {
            guard let cache else { return nil }
            do { return try cache.save(files, digests: digests, scanStart: scanStart, matchedManifest: matchedManifest) } catch {
                logger.warning("could not save the stat cache \(cache.file): \(error)")
                return nil
            }
        }

        var comparedWith: Int?
        if !options.force, let latest = try newestManifest() {
            let digest = Self.matchDigest(manifestSHA: SHA1.hash(latest.bytes), flavorspec: options.flavorspec)
            // The cache vouches for every file and says they equal this manifest: an
            // unchanged tree is known without parsing it, and nothing is written.
            if tree.cached?.coversAll == true && tree.cached?.matchedManifest == digest {
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
        // With one thread to work on, they take turns.
        let coversAll = tree.cached?.coversAll == true
        let saving: @Sendable () -> SavedStatCache? = { coversAll ? nil : save(matchedManifest: nil) }
        let storing = { () throws -> FlushingObjects in
            let stored = try storeObjects(files, hashed, tally: tally)
            return FlushingObjects(stored: stored, flush: catalog.storage.startFlush())
        }
        let (savedCache, flushing) =
            try (options.workers ?? AvailableCores.count) > 1 ? concurrently(saving, storing) : (saving(), storing())
        let objects = flushing.stored
        let draft = VersionDraft(
            paths: files.map(\.relativePath), fileFlavors: flavors, objects: objects.objects,
            objectOfFile: objects.objectOfFile, fileSizes: files.map(\.size),
            chunkList: chunkList(files, hashed, objects, comparedWith: comparedWith))
        return .stored(StoredTree(draft: draft, savedCache: savedCache, comparedWith: comparedWith, objectsFlush: flushing.flush))
    }

    /// The objects of a tree, stored, and their flush, started as soon as they were.
    private struct FlushingObjects {
        let stored: StoredObjects
        let flush: PendingFlush
    }

    /// Commits the stored tree as a version (see `VersionCommit`) and says what the
    /// import wrote.
    private func commit(_ tree: StoredTree, tally: WriteTally, lock: HeldLock) throws -> ImportSummary {
        let committed = Result {
            try catalog.commitVersion(
                bundle, tree.draft, tree.objectsFlush, comparedWith: tree.comparedWith, options: options, lock: lock)
        }
        // Waited for even when no manifest of this import names the objects (another
        // writer's may), since a failed write-back is reported to this flush alone.
        let flushed = Result { try tree.objectsFlush.wait() }
        let version = try committed.get()
        try flushed.get()
        if let manifestSHA = version.manifestSHA, let savedCache = tree.savedCache {
            do { try savedCache.recordMatch(Self.matchDigest(manifestSHA: manifestSHA, flavorspec: options.flavorspec)) } catch {
                catalog.logger.warning("could not update the stat cache: \(error)")
            }
        }
        var archiveBytes: Int64 = 0
        var versionBytes: Int64 = 0
        if case .created(let number) = version.result {
            let files = VersionFiles(bundle: bundle, version: number)
            for flavor in [nil] + tree.draft.flavors {
                archiveBytes += try catalog.storage.size(of: files.archive(flavor)) ?? 0
            }
            for path in files.documents {
                versionBytes += try catalog.storage.size(of: path) ?? 0
            }
        }
        return ImportSummary(
            result: version.result, isNewBundle: version.isNewBundle, files: tree.draft.paths.count, newObjects: tally.files,
            objectBytes: tally.bytes, archiveBytes: archiveBytes, bytesWritten: tally.bytes + archiveBytes + versionBytes)
    }

    /// The files of the tree (what the ignore patterns leave in), and what the stat cache,
    /// if one is kept, knows of them.
    private struct ScannedTree {
        let files: [SourceFile]
        let cache: StatCache?
        let cached: StatCache.Lookup?
    }

    private func scan() throws -> ScannedTree {
        let ignoring = try IgnorePatterns.forSource(source, defaults: options.defaultIgnores, excludes: options.excludes)
        let logger = catalog.logger
        let files = try SourceTree.scan(source, ignoring: ignoring, workers: options.workers) { logger.warning("\($0)") }
        let cache = options.statCacheFolder.map { StatCache(folder: $0, sourceRoot: source) }
        return ScannedTree(files: files, cache: cache, cached: cache?.lookup(files))
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
    private func hash(_ files: [SourceFile], cached: StatCache.Lookup?, tally: WriteTally?) throws -> HashedFiles {
        // `coversAll`: a digest for every file.
        if let cached, cached.coversAll { return HashedFiles(digests: cached.digests.compactMap { $0 }, storedSizes: nil) }
        let chunked = Mutex([Int: [ContentChunk]]())
        let cached = cached?.digests
        // Bytes count what is read: a file the cache vouches for is done without reading it.
        let counter = ProgressCounter<ImportProgress>(
            .hashing, totalItems: files.count,
            totalBytes: files.indices.reduce(0) { cached?[$1] == nil ? $0 + files[$1].size : $0 },
            report: options.progress)
        let store = try catalog.objects.withShardSnapshot().counting(into: tally)
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

    /// The distinct contents of the hashed files, in SHA-1 order: per file the index of
    /// its content, and per content the first file with it and what a file stored of it
    /// while hashing (nil: it is still to be stored).
    private struct DistinctContents {
        var objectOfFile: [Int]
        var firstFiles = [Int]()
        var storedWhileHashing = [StoredObject.Sizes?]()

        init(_ hashed: HashedFiles) {
            let digests = hashed.digests
            objectOfFile = [Int](repeating: 0, count: digests.count)
            let byDigest = digests.indices.sorted { digests[$0] < digests[$1] || (digests[$0] == digests[$1] && $0 < $1) }
            for (position, i) in byDigest.enumerated() {
                if position == 0 || digests[byDigest[position - 1]] != digests[i] {
                    firstFiles.append(i)
                    storedWhileHashing.append(nil)
                }
                objectOfFile[i] = firstFiles.count - 1
                if let sizes = hashed.storedSizes?[i], sizes != .none { storedWhileHashing[firstFiles.count - 1] = sizes }
            }
        }
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

    /// A content still to store: the first file with it, its digest, and, for a large
    /// one, its chunks (found while hashing, or read again), asked for only when it is
    /// deflated: a gzipped object gets its flush points from them.
    private struct PendingContent: Sendable {
        let file: SourceFile
        let digest: SHA1.Digest
        let chunking: (@Sendable () throws -> [ContentChunk])?
    }

    /// Stores each distinct content once, in parallel, except those stored while hashing.
    /// Contents are told apart by sorting file numbers by digest: a table keyed by digest
    /// would take 8 MB for 100,000 files, when memory is tightest.
    private func storeObjects(_ files: [SourceFile], _ hashed: HashedFiles, tally: WriteTally) throws -> StoredObjects {
        let digests = hashed.digests
        let distinct = DistinctContents(hashed)
        let firstFiles = distinct.firstFiles
        let pending = distinct.storedWhileHashing.indices.filter { distinct.storedWhileHashing[$0] == nil }
        let counter = ProgressCounter<ImportProgress>(
            .storing, totalItems: pending.count,
            totalBytes: pending.reduce(0) { $0 + files[firstFiles[$1]].size }, report: options.progress)
        let store = try catalog.objects.withShardSnapshot().counting(into: tally)
        let contents = pending.map { (content: Int) -> PendingContent in
            let first = firstFiles[content]
            let file = files[first]
            var chunking: (@Sendable () throws -> [ContentChunk])?
            if file.size >= ContentChunker.threshold {
                chunking = { try hashed.chunks[first] ?? Self.chunks(of: file) }
            }
            return PendingContent(file: file, digest: digests[first], chunking: chunking)
        }
        let attempts = try parallelMap(count: contents.count, workers: options.workers) { p in
            let content = contents[p]
            let stored = try store.store(
                localPath: content.file.absolutePath, digest: content.digest, stamp: content.file.stamp,
                deflate: .onThisThreadOrDefer, chunking: content.chunking)
            if stored != nil { counter.finishedItem(bytes: content.file.size) }
            return stored
        }
        var storedNow = [ObjectStore.Stored]()
        storedNow.reserveCapacity(contents.count)
        for (content, attempt) in zip(contents, attempts) {
            if let attempt {
                storedNow.append(attempt)
                continue
            }
            // Huge files to deflate, one after another, each on every core.
            storedNow.append(
                try store.store(
                    localPath: content.file.absolutePath, digest: content.digest, stamp: content.file.stamp,
                    workers: options.workers, chunking: content.chunking))
            counter.finishedItem(bytes: content.file.size)
        }
        var chunks = [Int: ObjectChunks]()
        for (p, object) in pending.enumerated() {
            if let layout = storedNow[p].chunks { chunks[object] = layout }
        }
        // The contents stored now come in the order of `pending`, between those stored
        // while hashing.
        var objects = [StoredObject]()
        objects.reserveCapacity(firstFiles.count)
        var nextStored = 0
        for (first, sizes) in zip(firstFiles, distinct.storedWhileHashing) {
            if let sizes {
                objects.append(StoredObject(digest: digests[first], sizes: sizes))
            } else {
                objects.append(storedNow[nextStored].object)
                nextStored += 1
            }
        }
        return StoredObjects(objects: objects, objectOfFile: distinct.objectOfFile, firstFiles: firstFiles, chunks: chunks)
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
        _ files: [SourceFile], _ hashed: HashedFiles, _ stored: StoredObjects, comparedWith: Int?
    ) -> @Sendable () throws -> ChunkList {
        let large = stored.objects.indices.filter { files[stored.firstFiles[$0]].size >= ContentChunker.threshold }
        guard !large.isEmpty else { return { ChunkList() } }
        let previous = comparedWith.flatMap { try? catalog.readChunkList(bundle: bundle, version: $0) } ?? ChunkList()
        var list = ChunkList()
        var unchunked = [UnchunkedObject]()
        for o in large {
            let object = stored.objects[o]
            let first = stored.firstFiles[o]
            if let layout = stored.chunks[o] ?? previous.objects[object.digest], layout.fits(object) {
                list.objects[object.digest] = layout
            } else if object.formats[.raw] != nil {
                if let chunks = hashed.chunks[first] {
                    list.objects[object.digest] = ObjectChunks(raw: chunks)
                } else {
                    unchunked.append(UnchunkedObject(digest: object.digest, file: files[first]))
                }
            }
        }
        guard !unchunked.isEmpty else { return { [list] in list } }
        let workers = options.workers
        let chunked = BackgroundValue { [unchunked] in
            Result {
                try parallelMap(count: unchunked.count, workers: workers) { try Self.chunks(of: unchunked[$0].file) }
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

    /// A raw object of the chunk list still to be chunked, from the first file with its content.
    private struct UnchunkedObject: Sendable {
        let digest: SHA1.Digest
        let file: SourceFile
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

    /// The newest version of the bundle and its manifest's JSON, or nil when it has none.
    /// A delete_bundle may remove it meanwhile, which only means the tree is not
    /// unchanged (the commit checks again against the index it commits to).
    private func newestManifest() throws -> StoredManifest? {
        guard let version = try catalog.index().bundles[bundle]?.latestVersion else { return nil }
        return StoredManifest(bundle: bundle, version: version, in: catalog)
    }
}

extension Catalog {
    /// Imports every file under `source` as a new version of bundle `name`: a
    /// ``BundleImport`` run, for a caller that needs only whether it made a version.
    public func updateBundle(
        _ name: String, from source: String, options: BundleImportOptions = BundleImportOptions()
    ) throws -> BundleUpdateResult {
        try BundleImport(self, bundle: name, from: source, options: options).run().result
    }
}
