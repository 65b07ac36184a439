#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns what a user types after `--catalog` or `--dest` into a catalog root: a path,
/// `file:///abs/path`, `file://relative/path` (the 2012 talk uses both URL forms), or
/// the bare id of a catalog in the embedded default folder `catalogs/`.
public struct CatalogLocation: Equatable, Sendable {
    public let rootPath: String

    /// The embedded default folder, relative to the working directory.
    public static let defaultFolder = "catalogs"

    public init(rootPath: String) {
        self.rootPath = rootPath
    }

    public var rootURL: URL { URL(fileURLWithPath: rootPath, isDirectory: true) }

    /// Interprets a destination that need not exist yet.
    public static func destination(_ text: String) throws -> CatalogLocation {
        guard !text.isEmpty else { throw ZincError.emptyCatalogLocation }
        var path = text
        if text.hasPrefix("file://") {
            path = String(text.dropFirst("file://".count))
            guard !path.isEmpty else { throw ZincError.locationNamesNoFolder(text) }
        } else if text.contains("://") {
            throw ZincError.notALocalCatalog(text)
        }
        return CatalogLocation(rootPath: absolutePath(path))
    }

    /// Interprets `--catalog`: an existing catalog at that location, or else one under
    /// `catalogs/` with that id.
    public static func resolve(_ text: String) throws -> CatalogLocation {
        let direct = try destination(text)
        if isCatalog(direct.rootPath) { return direct }
        if !text.contains("/") {
            let embedded = CatalogLocation(rootPath: absolutePath(defaultFolder + "/" + text))
            if isCatalog(embedded.rootPath) { return embedded }
        }
        throw ZincError.catalogNotFound(text)
    }

    /// The embedded default for a new catalog: `catalogs/<id>`.
    public static func embedded(id: String) -> CatalogLocation {
        CatalogLocation(rootPath: absolutePath(defaultFolder + "/" + id))
    }

    static func isCatalog(_ root: String) -> Bool {
        CatalogIndex.fileNames.contains { FileManager.default.fileExists(atPath: root + "/" + $0) }
    }

    static func absolutePath(_ path: String) -> String {
        StandardizedPath.absolute(path)
    }
}
