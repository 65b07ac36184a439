/// What a file's content weighs, as reports show it beside what it weighs stored: the
/// manifest lists the content's size only for an object stored raw, and a version's
/// chunk list gives it for a large object stored gzipped. Any other gzipped object's
/// content size is recorded nowhere but in its own gzip stream.
extension StoredObject {
    /// The content's size: the raw size the manifest lists, else the one `chunks` (the
    /// version's chunk list) gives when its layout fits this object; nil when neither does.
    public func contentSize(chunks: ChunkList?) -> Int64? {
        if let size = contentSize { return size }
        guard let layout = chunks?.objects[digest], layout.fits(self) else { return nil }
        return layout.contentSize
    }

    /// `{"sha", "format", "stored_size", "size"}`: the members every report gives a file's
    /// object with (`size` the content's, null when not recorded).
    public func reportMembers(contentSize: Int64?) -> [String: JSONValue] {
        [
            "sha": .string(sha), "format": .string(preferredFormat.rawValue),
            "stored_size": .int(preferredSize), "size": contentSize.map { .int($0) } ?? .null,
        ]
    }
}

/// A sum of sizes read from manifests, which are untrusted input: it saturates at
/// `Int64.max` instead of overflowing, and counts apart the sizes that are not known.
public struct SizeTotal: Equatable, Sendable {
    /// The known sizes added up.
    public private(set) var bytes: Int64 = 0
    /// How many sizes were not known (nil), left out of `bytes`.
    public private(set) var unknown = 0

    public init() {}

    public mutating func add(_ size: Int64?) {
        guard let size else {
            unknown += 1
            return
        }
        let (sum, overflow) = bytes.addingReportingOverflow(size)
        bytes = overflow ? .max : sum
    }

    /// `bytes` with `+` after it when some sizes are not in it: `12.4 kB+` reads "at least".
    public var humanReadable: String { HumanFormat.bytes(bytes) + (unknown > 0 ? "+" : "") }
}
