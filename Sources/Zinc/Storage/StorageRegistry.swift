/// Opens catalog storage by location: a local path or `file://` URL (`FileStorage`),
/// or a URL whose scheme a backend registered (`s3://` with ZincS3). Commands go
/// through one registry, so a new backend is one `registering` call, not a special
/// case in every command. A backend's settings (S3's endpoint, credentials) are its
/// own: given where it registers, never carried by the core.
public struct StorageRegistry: Sendable {
    /// Opens a location of the backend's scheme, without checking that a catalog is there.
    public typealias Opener = @Sendable (_ location: String) throws -> CatalogStorage

    private var openers: [String: Opener]

    /// Local folders only.
    public static let local = StorageRegistry(openers: [:])

    private init(openers: [String: Opener]) {
        self.openers = openers
    }

    /// This registry with `scheme` (lowercase, as in `s3`) opened by `opener`.
    public func registering(scheme: String, _ opener: @escaping Opener) -> StorageRegistry {
        var copy = self
        copy.openers[scheme.lowercased()] = opener
        return copy
    }

    /// The schemes of remote backends, sorted.
    public var schemes: [String] { openers.keys.sorted() }

    /// The storage of an existing catalog (`--catalog`): a remote URL, a local path or
    /// `file://` URL, or the id of a catalog under `catalogs/`.
    public func catalogStorage(_ text: String) throws -> CatalogStorage {
        if let remote = try remoteStorage(text) { return remote }
        return try FileStorage(root: CatalogLocation.resolve(text).rootPath)
    }

    /// The storage where a new catalog goes (`--dest`), which need not exist yet.
    public func destinationStorage(_ text: String) throws -> CatalogStorage {
        if let remote = try remoteStorage(text) { return remote }
        return try FileStorage(root: CatalogLocation.destination(text).rootPath)
    }

    /// Whether `text` names a location of a registered remote backend.
    public func isRemote(_ text: String) -> Bool {
        scheme(of: text).map { openers[$0] != nil } ?? false
    }

    private func remoteStorage(_ text: String) throws -> CatalogStorage? {
        guard let scheme = scheme(of: text), scheme != "file" else { return nil }
        guard let opener = openers[scheme] else {
            throw ZincError.unknownStorageScheme(location: text, scheme: scheme, known: ["file"] + schemes)
        }
        return try opener(text)
    }

    private func scheme(of text: String) -> String? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }
}
