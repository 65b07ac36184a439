/// `chunks/BUNDLE-VERSION.json.gz`: the content-defined chunks (`ContentChunker`) of a
/// version's objects of `ContentChunker.threshold` bytes or more, as byte ranges of the
/// stored objects themselves, so a client holding most of a changed file fetches only
/// the ranges of the chunks it lacks. No byte is stored twice: a raw object's chunk is
/// its bytes; a gzipped object written with chunk lists has a sync flush at every chunk
/// boundary, each chunk deflated with the 32 KiB of content before it as its preset
/// dictionary (`ObjectChunks.history`), so each chunk's compressed bytes inflate as raw
/// deflate given that content, which a client assembling the object in order holds,
/// while the whole stays one gzip member.
///
/// Written after the objects and before the manifest, never changed; other clients
/// never read it. A list is a hint: clients check each chunk and the whole object
/// against their hashes, and a wrong list costs them the whole object, never a wrong
/// file. So it is not signed.
///
///     {"chunking": "fastcdc-gear64-16k-64k-256k", "format": 2,
///      "objects": {"<sha>": {"chunks": [[length, stored_length, "<xxh64>"], ...],
///                            "format": "gz", "history": 32768, "offset": 10}, ...}}
///
/// Format 1 (written before) has no `history`: its gz chunks were deflated with none.
package struct ChunkList: Equatable, Sendable {
    package static let folder = "chunks"
    /// The layout version this code writes (`format`); it also reads `1`.
    package static let formatVersion = 2

    package var objects: [SHA1.Digest: ObjectChunks]

    package init(objects: [SHA1.Digest: ObjectChunks] = [:]) {
        self.objects = objects
    }

    package static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).json.gz"
    }

    /// The JSON, keys sorted, chunks in stream order.
    package func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(objects.values.reduce(128) { $0 + 100 + $1.chunks.count * 64 })
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        append(#"{"chunking":"\#(ContentChunker.scheme)","format":\#(Self.formatVersion),"objects":{"#)
        for (o, digest) in objects.keys.sorted().enumerated() {
            let object = objects[digest]!
            if o > 0 { append(",") }
            append("\"")
            digest.appendHex(to: &out)
            append(#"":{"chunks":["#)
            for (c, chunk) in object.chunks.enumerated() {
                append(c == 0 ? "[" : ",[")
                append("\(chunk.length),\(chunk.storedLength),\"\(chunk.hash.hex)\"]")
            }
            append(#"],"format":"\#(object.format.rawValue)","history":\#(object.history),"offset":\#(object.offset)}"#)
        }
        append("}}")
        return out
    }

    /// Parses a list, checking that every entry is a well-formed chunking of some object
    /// (`ObjectChunks.init`); whether it fits the object a manifest records is
    /// `ObjectChunks.fits`. A list of another layout version or chunking scheme is
    /// refused: its chunks could not be matched with the ones clients hold.
    package static func parse(_ bytes: [UInt8], path: String) throws -> ChunkList {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard let root = (try? JSONValue.parse(bytes))?.objectValue else { throw damaged("not a JSON object") }
        guard let version = root["format"]?.intValue, version == 1 || version == Int64(formatVersion) else {
            throw damaged("not a chunk list of format 1 or \(formatVersion)")
        }
        guard root["chunking"]?.stringValue == ContentChunker.scheme else {
            throw damaged("its chunks are not cut by \(ContentChunker.scheme)")
        }
        guard let entries = root["objects"]?.objectValue else { throw damaged("'objects' is not an object") }
        var objects = [SHA1.Digest: ObjectChunks]()
        for (sha, entry) in entries {
            guard let digest = SHA1.Digest(hex: sha) else { throw damaged("'\(sha)' is not a SHA-1") }
            guard let entry = entry.objectValue, let format = entry["format"]?.stringValue.flatMap(ObjectFormat.init(rawValue:)),
                let offset = entry["offset"]?.intValue, let list = entry["chunks"]?.arrayValue,
                let history = version == 1 ? 0 : entry["history"]?.intValue
            else {
                throw damaged("the entry of \(sha) lacks its format, offset, history or chunks")
            }
            guard let chunks = StoredChunk.parse(list, format: format) else {
                throw damaged("a chunk of \(sha) is not [length, stored length, XXH64] within the chunking's bounds")
            }
            guard let object = ObjectChunks(format: format, offset: offset, chunks: chunks, history: history) else {
                throw damaged("the chunks of \(sha) do not fit in one object, or its history is not 0 or \(ObjectChunks.fullHistory)")
            }
            objects[digest] = object
        }
        return ChunkList(objects: objects)
    }
}

/// One chunk as stored: its content's length and hash, and how many stored bytes hold
/// it (the same for a raw object; its deflated bytes, ending in a full flush, for gz).
package struct StoredChunk: Equatable, Sendable {
    package let length: Int
    package let storedLength: Int
    package let hash: ChunkHash

    /// The most stored bytes a chunk may take: deflate's worst case for the longest
    /// chunk, with its flush markers.
    package static let maximumStoredLength = ContentChunker.maximumSize + ContentChunker.maximumSize / 256 + 64

    /// The most content deflate makes of one stored byte: a bound on what a hostile
    /// list can make a client write.
    package static let largestInflation = 1032

    /// Nil unless both lengths are within the chunking's bounds: equal for raw, and for
    /// gz no more than deflate can inflate the stored bytes to.
    package init?(length: Int64, storedLength: Int64, hash: ChunkHash, format: ObjectFormat) {
        guard length >= 1, length <= ContentChunker.maximumSize, storedLength >= 1,
            storedLength <= Self.maximumStoredLength,
            format == .gz ? length <= storedLength * Int64(Self.largestInflation) : storedLength == length
        else { return nil }
        self.length = Int(length)
        self.storedLength = Int(storedLength)
        self.hash = hash
    }

    /// The chunks of a list's JSON, each `[length, stored_length, "<xxh64>"]`; nil when
    /// one is not, or is out of the bounds `init` keeps.
    package static func parse(_ list: [JSONValue], format: ObjectFormat) -> [StoredChunk]? {
        var chunks = [StoredChunk]()
        chunks.reserveCapacity(list.count)
        for item in list {
            guard let fields = item.arrayValue, fields.count == 3, let length = fields[0].intValue,
                let stored = fields[1].intValue, let hash = fields[2].stringValue.flatMap(ChunkHash.init(hex:)),
                let chunk = StoredChunk(length: length, storedLength: stored, hash: hash, format: format)
            else { return nil }
            chunks.append(chunk)
        }
        return chunks
    }

    package init(_ content: ContentChunk, storedLength: Int) {
        length = content.length
        self.storedLength = storedLength
        hash = content.hash
    }

    /// The chunk's content as a chunk the repo may hold: its length and hash.
    package var content: ContentChunk { ContentChunk(length: length, hash: hash) }

    /// Why a chunk's stored bytes are not the chunk.
    package struct Mismatch: Error, CustomStringConvertible {
        package let description: String
    }

    /// Makes the chunk's content from its `stored` bytes into `content` (`length` bytes):
    /// inflated with `inflater` (which has followed the content before it) for a gz
    /// object's chunk, as they are for raw; then
    /// checks its hash, throwing a `Mismatch` that says which failed. What a client placing
    /// a fetched chunk and `verify` both do.
    package func decode(
        _ stored: UnsafeRawBufferPointer, into content: UnsafeMutableRawBufferPointer, inflater: ChunkInflater?
    ) throws {
        if let inflater {
            do { try inflater.inflate(stored, into: content) } catch {
                throw Mismatch(description: "does not inflate to \(length) bytes (\(error))")
            }
        } else {
            content.copyMemory(from: stored)
        }
        guard ChunkHash(of: UnsafeRawBufferPointer(content)) == hash else {
            throw Mismatch(description: "does not have the hash its list gives")
        }
    }
}

/// The chunks of one object in the format they were cut in, back to back from `offset`
/// (0 for raw, past the gzip header for gz).
package struct ObjectChunks: Equatable, Sendable {
    package let format: ObjectFormat
    package let offset: Int64
    package let chunks: [StoredChunk]
    /// For gz: how much of the content before each chunk (up to this many bytes, less at
    /// the start) its deflated bytes refer back to, given to inflate as a preset
    /// dictionary: `fullHistory`, as written now, within about 0.1 % of one deflate over
    /// the whole; or 0, as written before, each chunk inflating alone (2 to 7 % larger).
    package let history: Int
    /// Σ lengths: the content's size.
    package let contentSize: Int64
    /// `offset` + Σ stored lengths: where the last chunk's stored bytes end.
    package let storedEnd: Int64

    /// All the history deflate can refer back to: 32 KiB.
    package static let fullHistory = 1 << 15

    /// Nil when the chunks are none, or the offset is negative, or (raw) not 0, or the
    /// sums overflow, or the history is not 0 or (gz) `fullHistory`.
    package init?(format: ObjectFormat, offset: Int64, chunks: [StoredChunk], history: Int64 = 0) {
        guard !chunks.isEmpty, offset >= 0, format == .gz || offset == 0,
            history == 0 || (format == .gz && history == Int64(Self.fullHistory))
        else { return nil }
        var content: Int64 = 0
        var end = offset
        for chunk in chunks {
            // Each addend is at most a few hundred KiB: overflow needs 2^45 chunks, but input decides.
            let (c, o1) = content.addingReportingOverflow(Int64(chunk.length))
            let (e, o2) = end.addingReportingOverflow(Int64(chunk.storedLength))
            guard !o1, !o2 else { return nil }
            content = c
            end = e
        }
        self.format = format
        self.offset = offset
        self.chunks = chunks
        self.history = Int(history)
        contentSize = content
        storedEnd = end
    }

    /// The chunks of a raw object: its bytes.
    package init?(raw chunks: [ContentChunk]) {
        self.init(format: .raw, offset: 0, chunks: chunks.map { StoredChunk($0, storedLength: $0.length) })
    }

    /// Whether these chunks can be ranges of `object` as a manifest records it: stored in
    /// this format, the chunks within its stored bytes, and (raw) covering it exactly. A
    /// gz object's content size is not in the manifest: the SHA-1 of the whole decides.
    package func fits(_ object: StoredObject) -> Bool {
        guard let size = object.formats[format] else { return false }
        switch format {
        case .raw: return storedEnd == size
        // At least a deflate end block and the 8-byte trailer follow the last chunk.
        case .gz: return offset >= 10 && storedEnd <= size - 10
        }
    }

    /// The stored ranges of the chunks `held` lacks, ascending, adjacent ones merged, and
    /// the content bytes of the chunks it has.
    package func missingRanges(held: (ContentChunk) -> Bool) -> (ranges: [Range<Int64>], reused: Int64) {
        var ranges = [Range<Int64>]()
        var reused: Int64 = 0
        for (chunk, range) in zip(chunks, storedRanges()) {
            if held(chunk.content) {
                reused += Int64(chunk.length)
            } else if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        return (ranges, reused)
    }

    /// Where each chunk's stored bytes are, in order.
    package func storedRanges() -> [Range<Int64>] {
        var ranges = [Range<Int64>]()
        ranges.reserveCapacity(chunks.count)
        var start = offset
        for chunk in chunks {
            ranges.append(start..<(start + Int64(chunk.storedLength)))
            start += Int64(chunk.storedLength)
        }
        return ranges
    }
}
