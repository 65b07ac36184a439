import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A version's manifest made from one the repo holds of an earlier version of the same
/// bundle and the ranges of the chunks it lacks (docs/FORMAT.md, "Manifest chunks"):
/// the description (`ManifestChunks`) is fetched, the held manifest cut the same way as
/// it is read from its file, and the missing chunks' ranges of the chunk-deflated gzip
/// fetched, adjacent ones merged, as few requests as the server allows
/// (`SourceChain.download(_:ranges:to:parallel:)`). A signed version's digest list,
/// chunk-deflated and described the same way, is brought to the new version by the same
/// code (`DeltaFetchedDocument`).
///
/// Nothing is held whole: the held file is cut 64 KiB at a time, its chunks and the
/// fetched ranges are read back with `pread` one chunk at a time, and the rebuilt
/// document is written to a scratch file as each chunk is checked. Memory stays at one
/// chunk plus one entry per chunk of the held file (about 7,000 for a manifest of
/// 1,000,000 files), whatever the document's size.
///
/// The description is a hint: a missing, unreadable or wrong one, a chunk that does not
/// inflate to its length and hash, or a whole whose SHA-256 is not the described one,
/// makes `build` return `fallBack`, for the caller to fetch the document whole; the
/// scratch file of a refused rebuild is removed, never handed on.
struct ManifestDelta {
    let repo: Repo
    let chain: SourceChain
    /// The most bytes the description or the ranges may take.
    let limit: Int64
    /// The most bytes the rebuilt document may have: what its reader accepts.
    let plainLimit: Int64
    /// Requests in flight at once for a server that answers one range per request.
    let parallel: Int

    /// What a delta came to: the rebuilt document's plain bytes in a scratch file (the
    /// caller's to remove) and where it came from, or why not.
    enum Outcome {
        case built(file: TemporaryFile, url: String)
        /// Nil when the catalog has no description for the version (written before them).
        case fallBack(reason: String?)
    }

    /// The chunk-deflated document whose description is at `path` (whose `file` must be
    /// one of `files`), from `heldFile`, the plain bytes of an earlier version's; the
    /// ranges fetched are kept in a part file named from `part`.
    func build(_ path: String, files: [String], heldFile: String, part name: String) async -> Outcome {
        guard let hint = await chain.fetchHint(path, limit: limit) else { return .fallBack(reason: nil) }
        let description: ManifestChunks
        do { description = try ManifestChunks.parse(hint.bytes, path: hint.url, files: files) } catch {
            return .fallBack(reason: "\(error)")
        }
        guard description.size <= plainLimit else {
            return .fallBack(reason: "\(path) describes a document above \(plainLimit) bytes")
        }
        let held: PosixFile
        var heldAt = [ContentChunk: Int64]()
        do {
            held = try PosixFile.open(heldFile)
            heldAt = try ManifestChunks.chunks(of: held)
        } catch {
            return .fallBack(reason: "\(error)")
        }
        let ranges = description.layout.missingRanges { heldAt[$0] != nil }.ranges
        let total = ranges.reduce(Int64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
        guard total <= limit else { return .fallBack(reason: "\(path) asks for \(total) bytes, above \(limit)") }
        let part = repo.temporaryFolder + "/\(name).\(ChunkedObjectFetcher.name(of: ranges)).part"
        do {
            try await chain.download(description.file, ranges: ranges, to: part, parallel: parallel)
        } catch let error as ClientError {
            // What arrived before a cut connection stays for the next run; bytes found wrong do not.
            if error.isDamage { unlink(part) }
            return .fallBack(reason: "\(error)")
        } catch {
            return .fallBack(reason: "\(error)")
        }
        defer { unlink(part) }
        var output: TemporaryFile?
        do {
            let fetched = try PosixFile.open(part)
            guard Int64(try fetched.status().st_size) == total else {
                return .fallBack(reason: "the ranges of \(description.file) did not all arrive")
            }
            let rebuilt = try TemporaryFile(in: repo.temporaryFolder, named: name)
            output = rebuilt
            var at: Int64 = 0
            try description.rebuild(
                held: { chunk in try heldAt[chunk].map { try held.readAll(upTo: chunk.length, at: $0) } },
                stored: { _, range in
                    let length = Int(range.upperBound - range.lowerBound)
                    defer { at += Int64(length) }
                    return try fetched.readAll(upTo: length, at: at)
                },
                into: { try rebuilt.file.write($0) })
            let base = hint.url.hasSuffix(path) ? String(hint.url.dropLast(path.count)) : hint.url
            return .built(file: rebuilt, url: base + description.file)
        } catch {
            output?.remove()
            return .fallBack(reason: "\(error)")
        }
    }
}
