import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A version's manifest made from one the repo holds of an earlier version of the same
/// bundle and the ranges of the chunks it lacks (docs/FORMAT.md, "Manifest chunks"):
/// the description (`ManifestChunks`) is fetched, the held manifest cut the same way,
/// and the missing chunks' ranges of the chunk-deflated gzip fetched, adjacent ones
/// merged, as few requests as the server allows (`SourceChain.download(_:ranges:to:parallel:)`).
/// A signed version's digest list, chunk-deflated and described the same way, is brought
/// to the new version by the same code (`DigestListFetcher`).
///
/// The description is a hint: a missing, unreadable or wrong one, a chunk that does not
/// inflate to its length and hash, or a whole whose SHA-256 is not the described one,
/// makes `build` return nil, for the caller to fetch the manifest whole.
struct ManifestDelta {
    let repo: Repo
    let chain: SourceChain
    /// The most bytes the manifest, its description or the ranges may take.
    let limit: Int64
    /// Requests in flight at once for a server that answers one range per request.
    let parallel: Int

    /// What a delta came to: the manifest's plain JSON, where it came from, and why not.
    enum Outcome {
        case built(bytes: [UInt8], url: String)
        /// Nil when the catalog has no description for the version (written before them).
        case fallBack(reason: String?)
    }

    /// Version `version`'s manifest from `held`, the plain JSON of an earlier version's.
    func build(catalog: String, bundle: String, version: Int, held: [UInt8]) async -> Outcome {
        let files = VersionFiles(bundle: bundle, version: version)
        return await build(
            files.manifestChunks, files: [files.gzippedManifest, files.manifestChunksCopy], held: held,
            part: "\(catalog).\(bundle)-\(version).manifest")
    }

    /// Another chunk-deflated document the same way (a version's digest list): from `held`
    /// and the description at `path`, whose `file` must be one of `files`; the ranges
    /// fetched are kept in a part file named from `part`.
    func build(_ path: String, files: [String], held: [UInt8], part name: String) async -> Outcome {
        guard let hint = await chain.fetchHint(path, limit: limit) else { return .fallBack(reason: nil) }
        let description: ManifestChunks
        do { description = try ManifestChunks.parse(hint.bytes, path: hint.url, files: files) } catch {
            return .fallBack(reason: "\(error)")
        }
        guard description.size <= limit else { return .fallBack(reason: "\(path) describes a document above \(limit) bytes") }
        // The held manifest's chunks, by name, at their offsets in it.
        var splitter = ChunkSplitter(ManifestChunks.scheme)
        held.withUnsafeBytes { splitter.update($0) }
        var heldAt = [ContentChunk: Int]()
        var offset = 0
        for chunk in splitter.finish() {
            heldAt[chunk] = heldAt[chunk] ?? offset
            offset += chunk.length
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
        do {
            guard let fetched = try AtomicFile.read(part, limit: total), fetched.count == total else {
                return .fallBack(reason: "the ranges of \(description.file) did not all arrive")
            }
            var at = 0
            let bytes = try description.rebuild(
                held: { chunk in heldAt[chunk].map { held[$0..<($0 + chunk.length)] } },
                stored: { _, range in
                    let length = Int(range.upperBound - range.lowerBound)
                    defer { at += length }
                    return Array(fetched[at..<(at + length)])
                })
            let base = hint.url.hasSuffix(path) ? String(hint.url.dropLast(path.count)) : hint.url
            return .built(bytes: bytes, url: base + description.file)
        } catch {
            return .fallBack(reason: "\(error)")
        }
    }
}
