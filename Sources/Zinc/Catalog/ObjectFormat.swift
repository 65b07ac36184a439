/// How an object is stored: as its raw bytes, or as one gzip member.
public enum ObjectFormat: String, CaseIterable, Comparable, Sendable {
    case gz
    case raw

    /// The object's file name suffix in `objects/` and in archives.
    public var suffix: String { self == .gz ? ".gz" : "" }

    /// Readers prefer `gz`, then `raw`.
    public static func < (lhs: ObjectFormat, rhs: ObjectFormat) -> Bool {
        lhs == .gz && rhs == .raw
    }
}

/// One stored form of an object: its format and the size of the stored bytes.
public struct StoredObject: Equatable, Hashable, Sendable {
    public let sha: String
    /// Stored size per format present (`gz` size is the compressed size).
    public let formats: [ObjectFormat: Int64]

    public init(sha: String, formats: [ObjectFormat: Int64]) {
        self.sha = sha
        self.formats = formats
    }

    /// The format a reader (and an archive) uses: `gz` when present.
    public var preferredFormat: ObjectFormat { formats.keys.min()! }
    public var preferredSize: Int64 { formats[preferredFormat]! }

    /// The object's file name: `<sha>` or `<sha>.gz`.
    public var fileName: String { sha + preferredFormat.suffix }

    public static func path(sha: String, format: ObjectFormat) -> String {
        let utf8 = Array(sha.utf8)
        let a = String(decoding: utf8[0..<2], as: UTF8.self)
        let b = String(decoding: utf8[2..<4], as: UTF8.self)
        return "objects/\(a)/\(b)/\(sha)\(format.suffix)"
    }

    public var preferredPath: String { Self.path(sha: sha, format: preferredFormat) }
}
