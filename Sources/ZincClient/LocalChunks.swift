import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every chunk the repo holds, in any object of any bundle, by length and hash: what a
/// changed file is assembled from before anything is downloaded (casync's seed).
///
/// Each object of `ContentChunker.threshold` bytes or more has a record,
/// `chunks/<sha>`: "ZCR1", then per chunk its length (4 bytes) and its XXH64 (8
/// bytes), both little-endian. Records are computed from the objects themselves, never
/// taken from a server: as an object is verified into objects/ or assembled from
/// chunks, and, for a repo made before chunks, the first time it syncs; a record whose
/// lengths do not add up to its object's size is computed again. A record goes when its object goes
/// (`GarbageCollector`). Objects are read-only and named by their content, so a record
/// never goes stale; a chunk read for reuse is still checked against its hash.
struct LocalChunks: Sendable {
    /// Where a chunk's bytes are: an object of the repo, and an offset in it.
    struct Location: Sendable {
        let object: String
        let offset: Int64
    }

    private(set) var locations = [ContentChunk: Location]()

    static let magic: [UInt8] = Array("ZCR1".utf8)
    static let entrySize = 12

    subscript(_ chunk: ContentChunk) -> Location? { locations[chunk] }

    /// Whether the repo holds any chunk record, making them first where large objects
    /// have none: a repo made before chunks were, or one started from a seed (whose
    /// objects arrive without the hashing that records them).
    ///
    /// Finding the large objects takes a `stat` of every object, so it is done once:
    /// `chunks/.indexed` says every object has its record from then on (each one verified
    /// into the repo gets its record as it arrives), until objects arrive without one
    /// (`objectsArrivedUnrecorded`).
    static func exist(in repo: Repo) throws -> Bool {
        let marker = repo.chunksFolder + "/" + indexedMarker
        if access(marker, F_OK) != 0 {
            _ = try index(repo)
            _ = try? PosixFile.open(marker, flags: O_WRONLY | O_CREAT | O_NOFOLLOW)
        }
        return try hasEntries(repo.chunksFolder)
    }

    private static let indexedMarker = ".indexed"

    /// Says that objects arrived without their records (from a seed): the next update
    /// indexes the repo again.
    static func objectsArrivedUnrecorded(in repo: Repo) {
        unlink(repo.chunksFolder + "/" + indexedMarker)
    }

    private static func hasEntries(_ path: String) throws -> Bool {
        guard let folder = opendir(path) else { return false }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            if withUnsafeBytes(of: entry.pointee.d_name, { $0[0] != UInt8(ascii: ".") }) { return true }
        }
        return false
    }

    /// Indexes every object of the repo large enough to be chunked, computing the records
    /// it lacks. The `damaged` objects are no seeds: a sync removes them before it reads
    /// any chunk, and a plan, which keeps them, prices their chunks as that sync fetches them.
    static func index(_ repo: Repo, damaged: Set<String> = []) throws -> LocalChunks {
        var index = LocalChunks()
        if mkdir(repo.chunksFolder, 0o755) != 0, errno != EEXIST {
            throw ZincError.io(path: repo.chunksFolder, operation: "create folder", errno: errno)
        }
        guard access(repo.objectsFolder, F_OK) == 0 else { return index }
        // One name at a time: the repo's every object named at once took 93 MB at 1,000,000.
        try FolderListing.forEachName(in: repo.objectsFolder) { name in
            guard Names.isSHA1(name), !damaged.contains(name) else { return }
            let path = repo.objectFile(name)
            var info = stat()
            guard stat(path, &info) == 0, Int64(info.st_size) >= ContentChunker.threshold else { return }
            let chunks: [ContentChunk]
            if let recorded = read(repo.chunkRecordFile(name), size: Int64(info.st_size)) {
                chunks = recorded
            } else {
                let (digest, computed) = try ChunkingDigest.digest(file: PosixFile.openForReading(path))
                // Not what its name says: damaged, and no seed of anything.
                guard digest.hex == name else { return }
                chunks = computed
                try record(chunks, of: name, in: repo)
            }
            index.add(chunks, of: name)
        }
        return index
    }

    private mutating func add(_ chunks: [ContentChunk], of object: String) {
        var offset: Int64 = 0
        for chunk in chunks {
            if locations[chunk] == nil { locations[chunk] = Location(object: object, offset: offset) }
            offset += Int64(chunk.length)
        }
    }

    /// Writes the record of object `sha` (atomically: a record is whole or absent).
    static func record(_ chunks: [ContentChunk], of sha: String, in repo: Repo) throws {
        var bytes = magic
        bytes.reserveCapacity(magic.count + chunks.count * entrySize)
        for chunk in chunks {
            withUnsafeBytes(of: UInt32(chunk.length).littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: chunk.hash.value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        try AtomicFile.write(bytes, to: repo.chunkRecordFile(sha))
    }

    /// The chunks a record lists, nil when it is missing or does not describe `size` bytes.
    private static func read(_ path: String, size: Int64) -> [ContentChunk]? {
        let limit = magic.count + Int(size / Int64(ContentChunker.minimumSize) + 2) * entrySize
        guard let bytes = try? AtomicFile.read(path, limit: Int64(limit)), bytes.count >= magic.count,
            Array(bytes.prefix(magic.count)) == magic, (bytes.count - magic.count) % entrySize == 0
        else { return nil }
        var chunks = [ContentChunk]()
        var total: Int64 = 0
        var at = magic.count
        while at < bytes.count {
            let (length, hash) = bytes.withUnsafeBytes {
                (
                    Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self))),
                    UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at + 4, as: UInt64.self))
                )
            }
            guard length >= 1, length <= ContentChunker.maximumSize else { return nil }
            chunks.append(ContentChunk(length: length, hash: ChunkHash(hash)))
            total += Int64(length)
            at += entrySize
        }
        return total == size ? chunks : nil
    }
}
