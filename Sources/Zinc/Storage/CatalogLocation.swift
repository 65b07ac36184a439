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
        var searched = [direct.rootPath]
        if !text.contains("/") {
            let embedded = CatalogLocation(rootPath: absolutePath(defaultFolder + "/" + text))
            if isCatalog(embedded.rootPath) { return embedded }
            searched.append(embedded.rootPath)
        }
        throw ZincError.catalogNotFound(text, lookedIn: searched, suggestion: nearestCatalog(to: text))
    }

    /// What `text` most likely meant: a catalog beside the folder it names, or the id of
    /// one under `catalogs/`, spelt as it would be typed.
    static func nearestCatalog(to text: String) -> String? {
        let typed = text.hasPrefix("file://") ? String(text.dropFirst("file://".count)) : text
        let slash = typed.lastIndex(of: "/")
        let (folder, name) = slash.map { (String(typed[...$0]), String(typed[typed.index(after: $0)...])) } ?? ("", typed)
        func catalogs(in folder: String) -> [String] {
            let path = absolutePath(folder.isEmpty ? "." : folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().filter { isCatalog(path + "/" + $0) }
        }
        if let sibling = Spelling.nearest(to: name, among: catalogs(in: folder)) { return folder + sibling }
        guard slash == nil else { return nil }
        return Spelling.nearest(to: name, among: catalogs(in: defaultFolder))
    }

    /// The embedded default for a new catalog: `catalogs/<id>`.
    public static func embedded(id: String) -> CatalogLocation {
        CatalogLocation(rootPath: absolutePath(defaultFolder + "/" + id))
    }

    /// Whether the folder `root` holds a catalog's index (any of its four copies).
    package static func isCatalog(_ root: String) -> Bool {
        CatalogIndex.fileNames.contains { FileManager.default.fileExists(atPath: root + "/" + $0) }
    }

    static func absolutePath(_ path: String) -> String {
        StandardizedPath.absolute(path)
    }
}
