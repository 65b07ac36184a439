/// `manifest-chunks/BUNDLE-VERSION.json.gz`: where the content-defined chunks
/// (`ChunkingScheme.catalogDocuments`) of a version's manifest JSON are in a gzipped copy
/// of it whose deflate stream is cut at those chunks (`ChunkDeflater`), so a client
/// holding an earlier version's manifest fetches the ranges of the chunks it lacks, not
/// the whole manifest. Of a manifest written since, `file` is `manifests/B-V.json.gz`
/// itself; of an older one (ordinary gzip, no flush points), a chunk-deflated copy beside
/// this file, `manifest-chunks/B-V.manifest.json.gz` (`ManifestChunksBackfill`). A
/// reader takes no other name.
///
/// Written after the objects and before the manifest, never changed; other clients never
/// read it. A hint: a client checks every chunk and the whole manifest's SHA-256 (and
/// in a signed catalog the signed one), and anything wrong costs it the whole manifest.
///
///     {"chunking": "fastcdc-gear64-4k-16k-64k", "chunks": [[length, stored_length, "<xxh64>"], ...],
///      "file": "manifests/B-1.json.gz", "format": 1, "history": 32768, "offset": 10,
///      "sha256": "<of the plain JSON>", "size": <of the plain JSON>}
public struct ManifestChunks: Equatable, Sendable {
    public static let folder = "manifest-chunks"
    /// The layout version this code writes and reads (`format`).
    public static let formatVersion = 1
    /// How the manifest is cut.
    package static let scheme = ChunkingScheme.catalogDocuments

    /// The stored file the chunks are ranges of.
    public let file: String
    /// The chunks, as gz ranges of `file` from its deflate stream's start, with full history.
    package let layout: ObjectChunks
    /// The plain manifest JSON's SHA-256: what the chunks make, whole.
    package let sha256: SHA256.Digest

    /// The plain manifest's size: the chunks' lengths added up.
    public var size: Int64 { layout.contentSize }

    /// Nil unless the chunks are gz chunks of at most the scheme's longest, with full
    /// history, past the gzip header.
    package init?(file: String, chunks: [StoredChunk], sha256: SHA256.Digest) {
        guard chunks.allSatisfy({ $0.length <= Self.scheme.maximumSize }),
            let layout = ObjectChunks(
                format: .gz, offset: Int64(BlockGzipCompressor.headerLength), chunks: chunks,
                history: Int64(ObjectChunks.fullHistory))
        else { return nil }
        self.file = file
        self.layout = layout
        self.sha256 = sha256
    }

    public static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).json.gz"
    }

    /// Where a chunk-deflated copy of an older version's manifest goes.
    public static func copyPath(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).manifest.json.gz"
    }

    /// The JSON, keys sorted.
    public func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256 + layout.chunks.count * 40)
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        append(#"{"chunking":"\#(Self.scheme.name)","chunks":["#)
        for (c, chunk) in layout.chunks.enumerated() {
            append(c == 0 ? "[" : ",[")
            append("\(chunk.length),\(chunk.storedLength),\"\(chunk.hash.hex)\"]")
        }
        append(#"],"file":"\#(file)","format":\#(Self.formatVersion),"history":\#(layout.history),"#)
        append(#""offset":\#(layout.offset),"sha256":"\#(sha256.hex)","size":\#(size)}"#)
        return out
    }

    /// Parses the description of version `version` of `bundle`, refusing one of another
    /// layout or scheme, chunks out of the scheme's or deflate's bounds, sums that
    /// overflow or differ from `size`, and a `file` other than the two this version's may
    /// name. Whether the chunks fit in the stored file is for its reader to check.
    public static func parse(_ bytes: [UInt8], path: String, bundle: String, version: Int) throws -> ManifestChunks {
        try parse(
            bytes, path: path,
            files: [VersionFiles(bundle: bundle, version: version).gzippedManifest, copyPath(bundle: bundle, version: version)])
    }

    /// Parses a description of the same kind of another chunk-deflated document (a
    /// version's digest list, `DigestList`) whose `file` may only be one of `names`.
    public static func parse(_ bytes: [UInt8], path: String, files names: [String]) throws -> ManifestChunks {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard let root = (try? JSONValue.parse(bytes))?.objectValue else { throw damaged("not a JSON object") }
        guard root["format"]?.intValue == Int64(formatVersion) else {
            throw damaged("not a manifest chunk description of format \(formatVersion)")
        }
        guard root["chunking"]?.stringValue == scheme.name else { throw damaged("its chunks are not cut by \(scheme.name)") }
        guard let file = root["file"]?.stringValue, names.contains(file) else {
            throw damaged("'file' is not \(names.joined(separator: " or "))")
        }
        guard root["offset"]?.intValue == Int64(BlockGzipCompressor.headerLength),
            root["history"]?.intValue == Int64(ObjectChunks.fullHistory)
        else {
            throw damaged("its chunks do not start past the gzip header with \(ObjectChunks.fullHistory) bytes of history")
        }
        guard let sha = root["sha256"]?.stringValue.flatMap({ SHA256.Digest(hex: $0) }) else {
            throw damaged("'sha256' is not a SHA-256")
        }
        guard let list = root["chunks"]?.arrayValue, let size = root["size"]?.intValue else {
            throw damaged("it lacks its chunks or size")
        }
        guard let chunks = StoredChunk.parse(list, format: .gz) else {
            throw damaged("a chunk is not [length, stored length, XXH64] within deflate's bounds")
        }
        guard let description = ManifestChunks(file: file, chunks: chunks, sha256: sha) else {
            throw damaged("its chunks are none, longer than \(scheme.name) cuts, or add up past what a file holds")
        }
        guard description.size == size else { throw damaged("its chunks add up to \(description.size) bytes, not its size \(size)") }
        return description
    }

    /// `plain` chunk-deflated as a manifest is (`ChunkDeflater`), and the description of
    /// the result stored as `file`: what `add_manifest_chunks` writes for an older
    /// manifest, and a signer for a version's digest list.
    public static func deflated(_ plain: [UInt8], file: String) throws -> (gzipped: [UInt8], description: ManifestChunks) {
        var gzipped = [UInt8]()
        let deflater = try ChunkDeflater(scheme) { gzipped.append(contentsOf: $0) }
        try plain.withUnsafeBytes { try deflater.update($0) }
        try deflater.finish()
        // The chunker's lengths are within its scheme: the description always forms.
        return (gzipped, ManifestChunks(file: file, chunks: deflater.chunks, sha256: SHA256.digest(plain))!)
    }

    /// Whether the chunks fit in a stored file of `storedSize` bytes: at least an end
    /// block and the gzip trailer follow the last one.
    public func fits(storedSize: Int64) -> Bool {
        layout.storedEnd <= storedSize - 10
    }
}

extension ManifestChunks {
    /// Why chunks did not make the manifest described.
    public struct Mismatch: Error, CustomStringConvertible {
        public let description: String
    }

    /// The plain manifest, made chunk by chunk in order and handed to `sink` one chunk at
    /// a time: from `held` when it gives the chunk's content (the caller's chunks of a
    /// manifest it has), else by inflating the chunk's stored bytes that `stored` gives for
    /// its index and range of `file`. Each chunk is checked against its length and hash
    /// before `sink` sees it, and a running SHA-256 of the whole against `sha256` at the
    /// end; a `Mismatch` says which failed. Memory stays at one chunk whatever the
    /// manifest's size, so what `sink` got may be used only after a normal return. What a
    /// client's manifest delta and `verify` do.
    package func rebuild(
        held: (ContentChunk) throws -> [UInt8]?, stored: (_ index: Int, _ range: Range<Int64>) throws -> [UInt8],
        into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let inflater = ChunkInflater(history: layout.history)
        let whole = SHA256()
        var content = [UInt8]()
        for (i, (chunk, range)) in zip(layout.chunks, layout.storedRanges()).enumerated() {
            if let have = try held(chunk.content) {
                // Held bytes are read again from a file that may have changed since it was cut.
                guard have.count == chunk.length, have.withUnsafeBytes({ ChunkHash(of: $0) }) == chunk.hash else {
                    throw Mismatch(description: "chunk \(i): the held bytes given for it are not its content")
                }
                try have.withUnsafeBytes {
                    inflater.follow($0)
                    whole.update($0)
                    try sink($0)
                }
                continue
            }
            let bytes = try stored(i, range)
            guard bytes.count == chunk.storedLength else {
                throw Mismatch(description: "chunk \(i): \(bytes.count) stored bytes, not \(chunk.storedLength)")
            }
            content.removeAll(keepingCapacity: true)
            content.append(contentsOf: repeatElement(0, count: chunk.length))
            do {
                try content.withUnsafeMutableBytes { out in
                    try bytes.withUnsafeBytes { try chunk.decode($0, into: out, inflater: inflater) }
                }
            } catch {
                throw Mismatch(description: "chunk \(i) \(error)")
            }
            try content.withUnsafeBytes {
                whole.update($0)
                try sink($0)
            }
        }
        guard whole.finalize() == sha256 else {
            throw Mismatch(description: "its chunks make a manifest whose SHA-256 is not \(sha256.hex)")
        }
    }

    /// The chunks of a document a reader holds (an earlier version's manifest, cut as
    /// manifests are), each at the offset where it first occurs: what `rebuild` takes from
    /// it rather than fetch. Read 64 KiB at a time from the reader's position, so memory
    /// holds one entry per chunk (about 7,000 for a manifest of 1,000,000 files).
    package static func chunks(of reader: some StorageReader) throws -> [ContentChunk: Int64] {
        var splitter = ChunkSplitter(scheme)
        try reader.forEachChunk(chunkSize: 1 << 16) { splitter.update($0) }
        var at = [ContentChunk: Int64]()
        var offset: Int64 = 0
        for chunk in splitter.finish() {
            at[chunk] = at[chunk] ?? offset
            offset += Int64(chunk.length)
        }
        return at
    }

    /// `rebuild(held:stored:into:)` collected into one array, for a manifest small enough
    /// to hold (`verify`'s check of a catalog's descriptions).
    package func rebuild(
        held: (ContentChunk) -> ArraySlice<UInt8>?, stored: (_ index: Int, _ range: Range<Int64>) throws -> [UInt8]
    ) throws -> [UInt8] {
        var content = [UInt8]()
        content.reserveCapacity(Int(min(size, 1 << 26)))
        try rebuild(held: { held($0).map(Array.init) }, stored: stored) { content.append(contentsOf: $0) }
        return content
    }
}
