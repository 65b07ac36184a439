import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small repo files (repo.json, indexes, manifests) are replaced by writing a
/// temporary file beside them and renaming it over, so a killed process leaves either
/// the old content or the new, never half of one.
enum AtomicFile {
    /// With `durable` false the bytes are not flushed before the rename: for a cache
    /// whose reader takes a torn or missing file for an empty one (object stamps, link
    /// records), where a crash may cost the next run some time and never a wrong answer,
    /// and a flush would hold up the end of every sync.
    static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        try write(to: path, durable: durable) { try $0.write(bytes) }
    }

    /// Replaces `path` with what `body` writes into the open file, piece by piece: a
    /// large file (the stamps of 100,000 objects) is never held whole.
    static func write(to path: String, durable: Bool = true, _ body: (PosixFile) throws -> Void) throws {
        let temporary = temporaryName(for: path)
        do {
            let file = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
            try body(file)
            try install(file, over: path, durable: durable)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Where `path`'s new content is written before it replaces it.
    static func temporaryName(for path: String) -> String { path + ".tmp-\(getpid())" }

    /// Puts `file`, written in full at `temporaryName(for: path)`, in `path`'s place: a
    /// manifest is written there as it is read, never held whole.
    static func install(_ file: PosixFile, over path: String, durable: Bool = true) throws {
        if durable { try file.synchronize() }
        guard rename(temporaryName(for: path), path) == 0 else { throw ZincError.io(path: path, operation: "replace", errno: errno) }
        FaultInjection.changed(path)
    }

    /// The whole file, refusing more than `limit` bytes; nil when it does not exist.
    static func read(_ path: String, limit: Int64) throws -> [UInt8]? {
        let file: PosixFile
        do {
            file = try PosixFile.open(path)
        } catch let error as ZincError where error.errno == ENOENT {
            return nil
        }
        var bytes = [UInt8]()
        // The size it has now, so that a manifest of megabytes is not copied as it grows.
        let size = Int64(try file.status().st_size)
        bytes.reserveCapacity(Int(min(max(size, 0), limit)))
        try file.forEachChunk(chunkSize: 1 << 16) { chunk in
            guard Int64(bytes.count + chunk.count) <= limit else {
                throw ZincError.corruptFile(path: path, reason: "larger than \(limit) bytes")
            }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}
