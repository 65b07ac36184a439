#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory being served and the rules that map a request path to a file inside it.
struct ServedRoot: Sendable {
    let mode: ServerConfiguration.Mode
    /// The single catalog's id, the first segment of its second address `/<id>/`.
    let catalogID: String?
    /// Canonical (symlink-free) path of the served directory, without a trailing slash unless it is `/`.
    let canonicalPath: String

    enum SetupError: Error, CustomStringConvertible {
        case notADirectory(String)

        var description: String {
            switch self {
            case .notADirectory(let path): "not a directory: \(path)"
            }
        }
    }

    init(directory: URL, mode: ServerConfiguration.Mode, catalogID: String? = nil) throws {
        let path = directory.standardizedFileURL.path
        guard let canonical = Self.canonicalize(path), Self.isDirectory(canonical) else {
            throw SetupError.notADirectory(path)
        }
        self.mode = mode
        self.catalogID = catalogID
        self.canonicalPath = canonical
    }

    /// Where a request lands: the file to open and its path relative to its catalog's root,
    /// which is what cache policy depends on.
    struct Resolution: Equatable {
        let filePath: String
        let catalogPath: [String]
    }

    /// Blocking (it walks the file system): call it on the file I/O thread pool.
    func resolve(_ request: RequestPath) throws(OpenedFile.OpenError) -> Resolution {
        let catalogRoot: String
        let catalogPath: [String]
        switch mode {
        case .singleCatalog:
            catalogRoot = canonicalPath
            // `/<id>/PATH` is `/PATH`. Only the prefix is dropped: the rest passes the same
            // checks below, so nothing outside the catalog is reachable this way either.
            if let catalogID, request.segments.count >= 2, request.segments[0] == catalogID {
                catalogPath = Array(request.segments.dropFirst())
            } else {
                catalogPath = request.segments
            }
        case .catalogRoot:
            // `/` and `/<folder>/` would be listings; only files inside a catalog are served.
            guard request.segments.count >= 2,
                let folder = Self.canonicalize(Self.join(canonicalPath, [request.segments[0]])),
                Self.components(of: folder, inside: canonicalPath) != nil, Self.isCatalog(folder)
            else { throw .notFound }
            catalogRoot = folder
            catalogPath = Array(request.segments.dropFirst())
        }
        guard !catalogPath.isEmpty else { throw .notFound }

        // realpath resolves every symlink, so the prefix test below sees where the bytes really
        // are; a link to a hidden file inside the catalog is refused like the hidden file itself.
        guard let resolved = Self.canonicalize(Self.join(catalogRoot, catalogPath)) else { throw .notFound }
        guard let inside = Self.components(of: resolved, inside: catalogRoot),
            !inside.contains(where: { $0.first == UInt8(ascii: ".") })
        else { throw .notFound }
        return Resolution(filePath: resolved, catalogPath: catalogPath)
    }

    private static func join(_ directory: String, _ segments: [String]) -> String {
        (directory == "/" ? "" : directory) + "/" + segments.joined(separator: "/")
    }

    /// The components of `path` below `directory`, or nil when it is not strictly inside.
    /// Compared as bytes: `String` comparison is by Unicode canonical equivalence, which would
    /// let a differently normalised name pass for the served directory.
    private static func components(of path: String, inside directory: String) -> [Substring.UTF8View]? {
        let prefix = directory == "/" ? "/" : directory + "/"
        guard path.utf8.count > prefix.utf8.count, path.utf8.starts(with: prefix.utf8) else { return nil }
        return path.utf8.dropFirst(prefix.utf8.count).split(separator: UInt8(ascii: "/"))
    }

    /// A folder of the root is a catalog when it has its index, so stray folders are not served.
    private static func isCatalog(_ folder: String) -> Bool {
        isRegularFile(folder + "/catalog.json") || isRegularFile(folder + "/index.json")
    }

    private static func canonicalize(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
