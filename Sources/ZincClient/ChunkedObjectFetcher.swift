import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds an object from the chunks the repo already has (`LocalChunks`) and the byte
/// ranges of the others, fetched from the stored object in as few requests as the
/// server allows (`SourceChain.download(_:ranges:to:)`), aligned to chunk boundaries so
/// that every client asks a CDN for the same ranges.
///
/// The chunk list is a hint: every chunk is checked against its hash as it is placed,
/// local ones included, and the whole against the manifest's SHA-1 (and the
/// signed SHA-256) before it takes the object's name. Anything wrong ends with
/// `Outcome.fallBack`, for the caller to fetch the object whole.
struct ChunkedObjectFetcher {
    let repo: Repo
    let chain: SourceChain
    let seeds: LocalChunks
    var signedContent: [SHA1.Digest: SHA256.Digest]?
    /// Requests in flight at once for a server that answers one range per request.
    var parallel: Int
    /// The ranges another downloader brought, taken before any is asked for (`DownloadPlan`).
    var brought: DownloadedRanges?

    /// What assembling an object came to.
    enum Outcome: Equatable, Sendable {
        /// Assembled: `fetched` stored bytes came as ranges, `reused` content bytes were local.
        case assembled(fetched: Int64, reused: Int64)
        /// Not assembled, for `reason`: the object is to be fetched whole.
        case fallBack(reason: String)
    }

    func fetch(_ assembly: ChunkAssembly) async throws -> Outcome {
        let (object, layout, ranges) = (assembly.object, assembly.layout, assembly.ranges)
        let remote = StoredObject.path(sha: object.sha, format: layout.format)
        let origin = "\(chain.catalog): \(remote)"
        let part = repo.temporaryFolder + "/" + object.sha + "." + Self.name(of: ranges) + ".chunks.part"
        do {
            if let pieces = brought?.pieces(of: object.digest, storedSize: object.formats[layout.format] ?? -1), !pieces.isEmpty {
                try await take(pieces, of: object, ranges: ranges, remote: remote, into: part)
            }
            try await chain.download(remote, ranges: ranges, to: part, parallel: parallel)
        } catch let error as ClientError {
            if error.ignoredRanges != nil {
                unlink(part)
                return .fallBack(reason: "the server ignores Range")
            }
            // What arrived before a cut connection stays for the next run; bytes found wrong do not.
            if error.isDamage { unlink(part) }
            // Fetching the object whole is tried next: another way, or the same failure told plainly.
            return .fallBack(reason: "\(error)")
        }
        defer { unlink(part) }
        do {
            let reused = try assemble(object, layout: layout, fetched: PosixFile.open(part), origin: origin)
            return .assembled(fetched: assembly.fetchedBytes, reused: reused)
        } catch let error as ClientError {
            return .fallBack(reason: "\(error)")
        }
    }

    /// Writes `part` from what another downloader brought of `ranges` and the gaps it
    /// left, fetched into a part of their own (kept for the next run if cut).
    private func take(
        _ pieces: [DownloadedRanges.Piece], of object: StoredObject, ranges: [Range<Int64>], remote: String, into part: String
    ) async throws {
        let gaps = DownloadedRanges.gaps(in: ranges, leftBy: pieces)
        let gapsPart = repo.temporaryFolder + "/" + object.sha + "." + Self.name(of: gaps) + ".chunks.part"
        if !gaps.isEmpty { try await chain.download(remote, ranges: gaps, to: gapsPart, parallel: parallel) }
        try DownloadedRanges.compose(part, ranges: ranges, from: pieces + DownloadedRanges.pieces(ofDownload: gapsPart, ranges: gaps))
        unlink(gapsPart)
    }

    /// What names the part file of a download of `ranges`: a part left by a run that
    /// planned other ranges is not continued.
    static func name(of ranges: [Range<Int64>]) -> String {
        let hasher = SHA1()
        for range in ranges { hasher.update(Array("\(range.lowerBound)-\(range.upperBound),".utf8)) }
        return String(hasher.finalize().prefix(12))
    }

    /// Writes the object's content chunk by chunk, from the seeds or the fetched bytes in
    /// order, and moves it into objects/ once verified; returns the bytes reused.
    private func assemble(_ object: StoredObject, layout: ObjectChunks, fetched: PosixFile, origin: String) throws -> Int64 {
        let scratch = try VerifiedObjectWriter.scratch(for: object.sha, in: repo)
        let content = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentChunker.maximumSize, alignment: 16)
        let stored = UnsafeMutableRawBufferPointer.allocate(byteCount: StoredChunk.maximumStoredLength, alignment: 16)
        defer {
            content.deallocate()
            stored.deallocate()
        }
        let inflater = layout.format == .gz ? ChunkInflater(history: layout.history) : nil
        let whole = SHA1()
        let verifier = try ObjectVerifier(
            object: object, signedSHA256: ObjectVerifier.signedSHA256(of: object, in: signedContent, origin: origin), origin: origin)
        var seedFiles = [String: PosixFile]()
        var fetchedAt: Int64 = 0
        var reused: Int64 = 0
        for (i, chunk) in layout.chunks.enumerated() {
            try chain.cancellation?.check()
            let bytes = UnsafeMutableRawBufferPointer(rebasing: content[..<chunk.length])
            if let seed = seeds[chunk.content] {
                let file = try seedFiles[seed.object] ?? PosixFile.openForReading(repo.objectFile(seed.object))
                seedFiles[seed.object] = file
                guard try file.readFully(into: bytes, at: seed.offset) == chunk.length,
                    ChunkHash(of: UnsafeRawBufferPointer(bytes)) == chunk.hash
                else {
                    throw ClientError.integrity(url: repo.objectFile(seed.object), reason: "a chunk its record lists is not in it")
                }
                inflater?.follow(UnsafeRawBufferPointer(bytes))
                reused += Int64(chunk.length)
            } else {
                let input = UnsafeMutableRawBufferPointer(rebasing: stored[..<chunk.storedLength])
                guard try fetched.readFully(into: input, at: fetchedAt) == chunk.storedLength else {
                    throw ClientError.truncated(url: origin, received: fetchedAt, expected: fetchedAt + Int64(chunk.storedLength))
                }
                fetchedAt += Int64(chunk.storedLength)
                do { try chunk.decode(UnsafeRawBufferPointer(input), into: bytes, inflater: inflater) } catch {
                    throw ClientError.integrity(url: origin, reason: "chunk \(i) \(error)")
                }
            }
            whole.update(UnsafeRawBufferPointer(bytes))
            verifier.update(UnsafeRawBufferPointer(bytes))
            try scratch.file.write(UnsafeRawBufferPointer(bytes))
        }
        try verifier.check(sha1: whole.finalize())
        try VerifiedObjectWriter.install(scratch, as: repo.objectFile(object.sha))
        try LocalChunks.record(layout.chunks.map(\.content), of: object.sha, in: repo)
        return reused
    }
}
