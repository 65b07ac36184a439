/// What a file's content weighs, as reports show it beside what it weighs stored: the
/// manifest lists the content's size for an object stored raw, and the version's sizes
/// file (`ContentSizes`) for one stored gzipped.
extension StoredObject {
    /// The content's size: the raw size the manifest lists, else the one `sizes` (the
    /// version's sizes file) gives when it fits this object; nil when neither does (a
    /// version written before sizes files, until `zinc add_content_sizes` gives it one).
    public func contentSize(sizes: ContentSizes?) -> Int64? {
        contentSize ?? sizes?.size(of: self)
    }
}

/// `{"sha", "format", "stored_size", "size"}`: the members every report gives a file's
/// object with (`size` the content's, null when not recorded). A report of a file
/// encodes it into its own encoder, beside the file's path.
package struct ObjectReport: Encodable {
    package let object: StoredObject
    package let contentSize: Int64?

    package init(_ object: StoredObject, contentSize: Int64?) {
        self.object = object
        self.contentSize = contentSize
    }

    private enum CodingKeys: String, CodingKey {
        case sha, format
        case storedSize = "stored_size"
        case size
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(object.sha, forKey: .sha)
        try container.encode(object.preferredFormat.rawValue, forKey: .format)
        try container.encode(object.preferredSize, forKey: .storedSize)
        try container.encode(contentSize, forKey: .size)
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
