/// A file a writer began and never committed nor discarded (its process was killed
/// mid-write): invisible to `list` and `read`, yet holding space (a local temporary
/// file, the parts of an S3 multipart upload) until ``CatalogStorage/discard(_:)``
/// removes it.
///
/// A handle rather than a path: such a write is no catalog file, and what it takes to
/// remove it (a temporary name, an upload id beside the object key) differs by backend.
/// The backend that listed it packs that into `token`, so nothing has to parse it back
/// out of a name.
public struct AbandonedWrite: Hashable, Sendable {
    /// How `clean` names it to a user: catalog-relative, and distinct from every catalog
    /// file and every other abandoned write (a local temporary file's own path,
    /// `<path>?uploadId=<id>` on S3).
    public let displayPath: String
    /// The bytes it holds, as found when it was listed.
    public let size: Int64
    /// What its backend discards it by; only that backend looks inside.
    public let token: any Hashable & Sendable

    public init(displayPath: String, size: Int64, token: some Hashable & Sendable) {
        self.displayPath = displayPath
        self.size = size
        self.token = token
    }

    public static func == (lhs: AbandonedWrite, rhs: AbandonedWrite) -> Bool {
        lhs.displayPath == rhs.displayPath && lhs.size == rhs.size && AnyHashable(lhs.token) == AnyHashable(rhs.token)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(displayPath)
        hasher.combine(size)
        hasher.combine(AnyHashable(token))
    }
}
