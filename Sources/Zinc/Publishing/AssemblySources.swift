/// Where the bytes of a file a publish uploads sit already at its destination, as
/// ranges of files the destination holds (immutable files, named for their content or
/// version, so one of equal size there holds the same bytes):
///
/// - a large object: the chunk lists of the source's versions say where each
///   content-defined chunk is in the stored bytes of the objects holding it; a chunk
///   of equal length, stored length and XXH64 in an object the destination holds has
///   the same stored bytes when the object is raw, or gz with chunks deflated alone.
///   A chunk of a gz object deflated with the 32 KiB before it as its dictionary has the
///   same stored bytes only after that content matched too: the chunks of a matching
///   run that follow at least 32 KiB of matched content, or the run's first when both
///   objects start with it;
/// - an archive: the LMFO rule makes it the version's new members, then the previous
///   archive's members in their order minus those that left, so its members are found
///   by name and size in the destination's archive of the newest earlier version of the
///   same bundle and scope, headers and padding included; that archive's layout is read
///   from the local copy, or follows from its version's manifest and LMFO record. A new
///   member's bytes are its object's, which the destination holds by the time archives
///   go up (objects go first, FORMAT.md rule 1): only its header is new.
///
/// These are claims a store checks as it assembles (the bytes of every part against the
/// local file's), never trusted: a wrong one costs a whole upload, not a wrong file.
///
/// The source may be the destination's own catalog (`StoreAssembly`: a command writing
/// into the store directly): its chunk lists, manifests and records are then read there,
/// and the file being written is described by its writer rather than read.
final class AssemblySources {
    private let catalog: Catalog
    private let index: CatalogIndex
    private let present: [String: StorageEntry]
    /// The size of every object the destination holds once the objects are uploaded.
    private let objectsBeforeArchives: [String: Int64]
    private var chunkIndex: [ChunkKey: [(object: Int, chunk: Int)]]?
    private var sourceObjects = [SourceObject]()
    private var chunkedObjects = [SHA1.Digest: ObjectChunks]()

    /// - Parameters:
    ///   - present: the destination's listing.
    ///   - uploads: what the publish uploads, objects in a batch before archives.
    init(catalog: Catalog, index: CatalogIndex, present: [String: StorageEntry], uploads: [StorageEntry]) {
        self.catalog = catalog
        self.index = index
        self.present = present
        objectsBeforeArchives = Dictionary(
            (Array(present.values) + uploads).filter { $0.path.hasPrefix("objects/") }.map { ($0.path, $0.size) }
        ) { first, _ in first }
    }

    /// The ranges of `entry`'s bytes (a file of the source) the destination holds, sorted;
    /// empty for files other than objects and archives, or with no earlier counterpart there.
    func copies(for entry: StorageEntry) throws -> [CopiedRange] {
        if entry.path.hasPrefix("objects/") {
            guard let (digest, format) = Self.object(named: entry.path.split(separator: "/").last.map(String.init) ?? "") else {
                return []
            }
            _ = try loadChunkIndex()
            guard let chunked = chunkedObjects[digest], chunked.format == format else { return [] }
            return try copies(ofObject: chunked)
        }
        if ArchiveName(entry.path) != nil, let layout = try localLayout(entry.path, size: entry.size) {
            return try copies(ofArchive: entry.path, layout: layout, size: entry.size)
        }
        return []
    }

    // MARK: Objects

    private struct ChunkKey: Hashable {
        let length: Int
        let storedLength: Int
        let hash: ChunkHash

        init(_ chunk: StoredChunk) {
            length = chunk.length
            storedLength = chunk.storedLength
            hash = chunk.hash
        }
    }

    private struct SourceObject {
        let path: String
        let chunks: ObjectChunks
        let ranges: [Range<Int64>]
    }

    /// The ranges of an object whose stored bytes `chunked` describes that objects of the
    /// destination hold.
    func copies(ofObject chunked: ObjectChunks) throws -> [CopiedRange] {
        let chunkIndex = try loadChunkIndex()
        let ranges = chunked.storedRanges()
        var copies = [CopiedRange]()
        // The run being followed: a source object, its chunk matched last, and the content
        // matched in the run before the current chunk (counted as a whole history when
        // the run starts both objects: nothing precedes it in either).
        var run: (object: Int, chunk: Int, content: Int64)?
        for (i, chunk) in chunked.chunks.enumerated() {
            let key = ChunkKey(chunk)
            if let current = run, current.chunk + 1 < sourceObjects[current.object].chunks.chunks.count,
                ChunkKey(sourceObjects[current.object].chunks.chunks[current.chunk + 1]) == key
            {
                run = (current.object, current.chunk + 1, current.content)
            } else {
                run = chunkIndex[key]?.first { candidate in
                    let source = sourceObjects[candidate.object].chunks
                    return source.format == chunked.format && source.history == chunked.history
                }.map { ($0.object, $0.chunk, i == 0 && $0.chunk == 0 ? Int64(ObjectChunks.fullHistory) : 0) }
            }
            guard let current = run else { continue }
            let source = sourceObjects[current.object]
            if current.content >= Int64(chunked.history) {
                Self.append(
                    CopiedRange(source: source.path, sourceOffset: source.ranges[current.chunk].lowerBound, range: ranges[i]),
                    to: &copies)
            }
            run = (current.object, current.chunk, current.content + Int64(chunk.length))
        }
        return copies
    }

    /// Every chunked object of the source's versions, and by chunk those the destination
    /// holds; read once, when the first large object is planned.
    private func loadChunkIndex() throws -> [ChunkKey: [(object: Int, chunk: Int)]] {
        if let chunkIndex { return chunkIndex }
        var built = [ChunkKey: [(object: Int, chunk: Int)]]()
        for (bundle, entry) in index.bundles.sorted(by: { $0.key < $1.key }) {
            for version in entry.versions {
                // A list that cannot be read costs only the copies it would have given.
                guard let list = try? catalog.readChunkList(bundle: bundle, version: version) else { continue }
                for (digest, chunks) in list.objects where chunkedObjects[digest] == nil {
                    chunkedObjects[digest] = chunks
                    let path = StoredObject.path(digest: digest, format: chunks.format)
                    guard present[path] != nil else { continue }
                    sourceObjects.append(SourceObject(path: path, chunks: chunks, ranges: chunks.storedRanges()))
                    for (position, chunk) in chunks.chunks.enumerated() {
                        built[ChunkKey(chunk), default: []].append((sourceObjects.count - 1, position))
                    }
                }
            }
        }
        chunkIndex = built
        return built
    }

    // MARK: Archives

    /// An archive's bundle, version and scope, from its path.
    private struct ArchiveName: Equatable {
        let bundle: String
        let version: Int
        let flavor: String?

        init?(_ path: String) {
            guard path.hasPrefix("archives/"), path.hasSuffix(".tar") else { return nil }
            let stem = path.dropFirst("archives/".count).dropLast(".tar".count)
            let parts = stem.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
            guard let dash = parts[0].lastIndex(of: "-"), let version = Int(parts[0][parts[0].index(after: dash)...]) else {
                return nil
            }
            bundle = String(parts[0][..<dash])
            self.version = version
            flavor = parts.count > 1 ? String(parts[1]) : nil
        }

        var path: String { Catalog.archivePath(bundle: bundle, version: version, flavor: flavor) }
    }

    /// The ranges of the archive `path` of `size` bytes, whose members `layout` places,
    /// that the destination holds.
    func copies(ofArchive path: String, layout: ArchiveLayout, size: Int64) throws -> [CopiedRange] {
        guard let name = ArchiveName(path) else { return [] }
        let earlier = present.keys.compactMap { path in
            ArchiveName(path).flatMap { $0.bundle == name.bundle && $0.flavor == name.flavor && $0.version < name.version ? $0 : nil }
        }
        guard let previous = earlier.max(by: { $0.version < $1.version }), let previousSize = present[previous.path]?.size,
            let old = try previousLayout(previous, size: previousSize)
        else { return [] }
        let previousPath = previous.path
        let held = Dictionary(old.members.map { ($0.name, ($0.offset, $0.length)) }) { first, _ in first }
        var copies = [CopiedRange]()
        for member in layout.members {
            if let (offset, length) = held[member.name], length == member.length {
                Self.append(
                    CopiedRange(source: previousPath, sourceOffset: offset, range: member.offset..<(member.offset + length)),
                    to: &copies)
            } else if let object = Self.objectPath(ofMember: member.name), let size = objectsBeforeArchives[object],
                member.length == TarHeader.memberLength(size: size)
            {
                let data = member.offset + Int64(TarHeader.blockSize)
                copies.append(CopiedRange(source: object, sourceOffset: 0, range: data..<(data + size)))
            }
        }
        // The end-of-archive blocks, when both archives end with the same member.
        if let last = copies.last, last.range.upperBound == layout.end,
            last.sourceOffset + Int64(last.range.count) == old.end, size - layout.end == previousSize - old.end
        {
            copies[copies.count - 1] = CopiedRange(
                source: last.source, sourceOffset: last.sourceOffset, range: last.range.lowerBound..<size)
        }
        return copies
    }

    /// The object file an archive member holds (members are named like object files).
    private static func objectPath(ofMember name: String) -> String? {
        object(named: name).map { StoredObject.path(digest: $0.digest, format: $0.format) }
    }

    /// The object and format an object file's name (`SHA` or `SHA.gz`) says.
    private static func object(named name: String) -> (digest: SHA1.Digest, format: ObjectFormat)? {
        let format: ObjectFormat = name.hasSuffix(".gz") ? .gz : .raw
        guard name.count == 40 + format.suffix.count, let digest = SHA1.Digest(hex: String(name.prefix(40))) else { return nil }
        return (digest, format)
    }

    /// The layout of the previous archive: read from the local copy when the source is
    /// local and has it (the same bytes), otherwise from its version's manifest and LMFO
    /// record, which decide its members and their order byte for byte (a catalog in the
    /// destination itself reads two small documents rather than the archive); nil without
    /// either, or when the layout does not add up to the archive's size at the destination.
    private func previousLayout(_ name: ArchiveName, size: Int64) throws -> ArchiveLayout? {
        if !catalog.storage.properties.isRemote, try catalog.storage.size(of: name.path) == size {
            return try localLayout(name.path, size: size)
        }
        guard let record = try catalog.storedRecord(bundle: name.bundle, version: name.version),
            let manifest = try? catalog.manifest(bundle: name.bundle, version: name.version)
        else { return nil }
        let objects = StoredObject.distinctSorted(Array(manifest.objectsByDigest(flavor: name.flavor).values))
        let layout = ArchiveLayout(members: Catalog.archiveMembers(ofDistinct: objects, flavor: name.flavor, record: record))
        return layout.end + Int64(2 * TarHeader.blockSize) == size ? layout : nil
    }

    /// The layout of a local archive, from its headers; nil when it is not a complete one.
    private func localLayout(_ path: String, size: Int64) throws -> ArchiveLayout? {
        guard let file = try catalog.storage.openForReading(path) else { return nil }
        let reader = TarReader(file, path: catalog.storage.location + "/" + path)
        var layout = ArchiveLayout()
        while let member = try reader.next() {
            let length = TarHeader.memberLength(size: member.size)
            layout.members.append((member.name, member.offset, length))
            layout.end = member.offset + length
        }
        return reader.ending == .endOfArchive && layout.end <= size ? layout : nil
    }

    /// Adds `range` to `copies`, as part of the last one when it continues it in both files.
    private static func append(_ range: CopiedRange, to copies: inout [CopiedRange]) {
        if let last = copies.last, last.source == range.source, last.range.upperBound == range.range.lowerBound,
            last.sourceOffset + Int64(last.range.count) == range.sourceOffset
        {
            copies[copies.count - 1] = CopiedRange(
                source: last.source, sourceOffset: last.sourceOffset, range: last.range.lowerBound..<range.range.upperBound)
        } else {
            copies.append(range)
        }
    }
}

/// Where each member is in an archive, by name, and where the members end (before the
/// end-of-archive blocks).
struct ArchiveLayout {
    var members = [(name: String, offset: Int64, length: Int64)]()
    var end: Int64 = 0

    init() {}

    /// The layout of an archive of `members` in this order, as `writeArchive` writes it.
    init(members: [StoredObject]) {
        for member in members {
            let length = TarHeader.memberLength(size: member.preferredSize)
            self.members.append((member.fileName, end, length))
            end += length
        }
    }
}
