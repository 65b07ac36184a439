/// `sizes/BUNDLE-VERSION.json.gz`: the content (uncompressed) size of each object of a
/// version that is stored gzipped only. A manifest gives an object's stored size in each
/// format, so a raw object's content size is in it, a gzipped one's nowhere but in its
/// own gzip stream; and manifests take no new key (other clients validate them against
/// schemas). Reports (`list_bundle --sizes`, `list --sizes`, `diff`) read it instead of
/// unpacking objects.
///
/// Written after the objects and before the manifest, never changed; other clients never
/// read it. It is read as untrusted input: what it says is used only where it fits the
/// object the manifest records (`size(_:fits:)`), and `verify` checks it against the objects.
/// A version whose objects are all raw has none. `zinc add_content_sizes`
/// (``ContentSizeBackfill``) writes it for versions imported before it existed.
///
///     {"format": 1, "sizes": {"<sha>": content_size, ...}}
public struct ContentSizes: Equatable, Sendable {
    public static let folder = "sizes"
    /// The layout this code writes and reads (`format`).
    public static let formatVersion = 1

    public var sizes: [SHA1.Digest: Int64]

    public init(sizes: [SHA1.Digest: Int64] = [:]) {
        self.sizes = sizes
    }

    public static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).json.gz"
    }

    /// Whether `object` is one this file gives a size for: one the manifest records
    /// stored gzipped only, so that its content size is nowhere else.
    package static func needsEntry(_ object: StoredObject) -> Bool {
        object.contentSize == nil && object.sizes.gz >= 0
    }

    /// The content size given for `object`, when the object is one the file is for and
    /// the size one its stored bytes can inflate to (see `size(_:fits:)`).
    package func size(of object: StoredObject) -> Int64? {
        guard let size = sizes[object.digest], Self.needsEntry(object), Self.size(size, fits: object.sizes.gz) else { return nil }
        return size
    }

    /// Whether `content` bytes can be what `stored` gzipped bytes inflate to: deflate
    /// makes at most 1,032 bytes of one.
    static func size(_ content: Int64, fits stored: Int64) -> Bool {
        let (limit, overflow) = stored.multipliedReportingOverflow(by: Int64(StoredChunk.largestInflation))
        return overflow || content <= limit
    }

    /// The JSON, keys sorted.
    public func encoded() -> [UInt8] {
        var out = Array(#"{"format":\#(Self.formatVersion),"sizes":{"#.utf8)
        out.reserveCapacity(sizes.count * 64 + 32)
        for (i, digest) in sizes.keys.sorted().enumerated() {
            out.append(contentsOf: (i == 0 ? "\"" : ",\"").utf8)
            digest.appendHex(to: &out)
            out.append(contentsOf: "\":\(sizes[digest]!)".utf8)
        }
        out.append(contentsOf: "}}".utf8)
        return out
    }

    /// Parses a file, refusing another layout, unknown keys, and any entry that is not a
    /// SHA-1 with a size from 0 to `Manifest.maximumObjectSize` (so that sums of sizes
    /// stay far from overflowing).
    public static func parse(_ bytes: [UInt8], path: String) throws -> ContentSizes {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard let root = (try? JSONValue.parse(bytes))?.objectValue else { throw damaged("not a JSON object") }
        guard root["format"]?.intValue == Int64(formatVersion) else { throw damaged("not a sizes file of format \(formatVersion)") }
        guard let entries = root["sizes"]?.objectValue else { throw damaged("'sizes' is not an object") }
        if let unknown = root.keys.sorted().first(where: { $0 != "format" && $0 != "sizes" }) {
            throw damaged("unknown key '\(Names.printable(unknown))'")
        }
        var sizes = [SHA1.Digest: Int64]()
        sizes.reserveCapacity(entries.count)
        for (sha, value) in entries {
            guard let digest = SHA1.Digest(hex: sha) else { throw damaged("'\(Names.printable(sha))' is not a SHA-1") }
            guard let size = value.intValue, (0...Manifest.maximumObjectSize).contains(size) else {
                throw damaged("the size of \(sha) is not a number of bytes from 0 to \(Manifest.maximumObjectSize)")
            }
            sizes[digest] = size
        }
        return ContentSizes(sizes: sizes)
    }
}
