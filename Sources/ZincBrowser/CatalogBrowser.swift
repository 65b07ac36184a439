import Zinc
import ZincServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The read-only web pages of `zinc serve` under `/~zinc/`: the catalogs served, their
/// bundles, versions, files, previews and diffs. Every path segment and query value is
/// untrusted: catalogs are found by looking the segment up among the served ones,
/// bundles and versions in the index, files in the manifest, never by joining a path.
public struct CatalogBrowser: DynamicRoutes {
    /// Where the catalogs are: one catalog, or every catalog folder below a folder.
    public enum Source: Sendable, Equatable {
        /// One catalog, known in the pages by its id; its files are served at `/`.
        case catalog(root: String, id: String)
        /// The catalog folders directly below `folder`, each known by the folder's name;
        /// their files are served at `/<folder>/`.
        case folder(String)
    }

    public let source: Source
    public let prefix = "~zinc"
    let urls = BrowserURL(base: "/~zinc")

    public init(source: Source) {
        self.source = source
    }

    /// A catalog of the served root: the name pages use for it, and where its files are
    /// served.
    struct ServedCatalog {
        let key: String
        let catalog: Catalog
        /// The URL prefix of its static files, ending in `/`.
        let filesBase: String
    }

    public func respond(to request: DynamicRequest) -> DynamicResponse {
        do {
            return try route(request)
        } catch let failure as BrowserFailure {
            return errorPage(status: failure.status, message: failure.message)
        } catch let error as ZincError {
            switch error.code {
            case .bundleNotFound, .versionNotFound, .distroNotFound, .catalogNotFound:
                return errorPage(status: 404, message: "\(error)")
            case .invalidName, .invalidVersionSpec, .flavorNotFound, .invalidPath:
                return errorPage(status: 400, message: "\(error)")
            default:
                return errorPage(status: 500, message: "\(error)")
            }
        } catch {
            return errorPage(status: 500, message: "\(error)")
        }
    }

    private func route(_ request: DynamicRequest) throws -> DynamicResponse {
        let path = request.segments
        guard let key = path.first else { return page(try catalogsPage()) }
        let served = try catalog(key)
        guard path.count > 1 else { return page(try catalogPage(served)) }
        let bundle = path[1]
        try Names.validateBundleName(bundle)
        let entry = try served.catalog.index().bundle(bundle)
        guard path.count > 2 else { return page(try bundlePage(served, bundle, entry)) }
        if path.count == 3 && path[2] == "diff" {
            let from = try VersionSpec(try request.required("from")).resolve(in: entry, name: bundle)
            let to = try VersionSpec(try request.required("to")).resolve(in: entry, name: bundle)
            return page(try diffPage(served, bundle, from: from, to: to, flavor: request.flavor))
        }
        let version = try VersionSpec(path[2]).resolve(in: entry, name: bundle)
        let manifest = try served.catalog.manifest(bundle: bundle, version: version)
        switch path.count > 3 ? path[3] : nil {
        case nil where path.count == 3:
            return page(try versionPage(served, manifest, entry: entry, flavor: request.flavor))
        case "file" where path.count == 4:
            return try fileContent(served, manifest, path: request.required("path"))
        case "view" where path.count == 4:
            return page(try viewPage(served, manifest, path: request.required("path")))
        default:
            throw BrowserFailure(status: 404, message: "no page at this address")
        }
    }

    /// The catalogs served, sorted by key; folders that are not catalogs are left out.
    func catalogs() throws -> [ServedCatalog] {
        switch source {
        case .catalog(let root, let id):
            return [ServedCatalog(key: id, catalog: try Catalog.open(FileStorage(root: root)), filesBase: "/")]
        case .folder(let folder):
            return catalogFolders(in: folder).compactMap { openFolder($0, in: folder) }
        }
    }

    /// The catalog a page's first segment names: one of `catalogs()`, found by lookup.
    func catalog(_ key: String) throws -> ServedCatalog {
        let found: ServedCatalog?
        switch source {
        case .catalog(_, let id): found = key == id ? try catalogs()[0] : nil
        case .folder(let folder): found = catalogFolders(in: folder).contains(key) ? openFolder(key, in: folder) : nil
        }
        guard let found else { throw BrowserFailure(status: 404, message: "no catalog '\(key)' is served here") }
        return found
    }

    private func openFolder(_ name: String, in folder: String) -> ServedCatalog? {
        guard let catalog = try? Catalog.open(FileStorage(root: folder + "/" + name)) else { return nil }
        return ServedCatalog(key: name, catalog: catalog, filesBase: "/" + BrowserURL.encoded(name) + "/")
    }

    /// The folders directly in `folder`, sorted, without hidden ones or links leading
    /// outside it: the folders the static server serves too.
    private func catalogFolders(in folder: String) -> [String] {
        guard let root = canonical(folder) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            guard !name.hasPrefix("."), let path = canonical(folder + "/" + name) else { return false }
            return path.utf8.starts(with: (root == "/" ? "/" : root + "/").utf8)
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func page(_ html: HTML) -> DynamicResponse {
        DynamicResponse(status: 200, headers: Self.pageHeaders, body: .text(html.markup))
    }

    func errorPage(status: Int, message: String) -> DynamicResponse {
        let title = status == 404 ? "Not found" : status == 400 ? "Bad request" : "Error"
        let html = layout(
            title: "\(status) \(title)", crumbs: [],
            body: """
                <h1>\(status) \(title)</h1><p class="error">\(message)</p><p><a href="\(urls.catalogs())">All catalogs</a></p>
                """)
        return DynamicResponse(status: status, headers: Self.pageHeaders, body: .text(html.markup))
    }

    /// Pages show the catalog as it is now, load nothing from elsewhere and run no script.
    static let pageHeaders: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; form-action 'self'"),
    ]
}

/// A request the browser refuses, with its HTTP status.
struct BrowserFailure: Error {
    let status: Int
    let message: String
}

extension DynamicRequest {
    func required(_ name: String) throws -> String {
        guard let value = query[name], !value.isEmpty else {
            throw BrowserFailure(status: 400, message: "the query parameter '\(name)' is missing")
        }
        return value
    }

    /// The `flavor` parameter, validated; nil when absent or empty.
    var flavor: String? {
        get throws {
            guard let flavor = query["flavor"], !flavor.isEmpty else { return nil }
            try Names.validateFlavorName(flavor)
            return flavor
        }
    }
}
