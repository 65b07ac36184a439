import ArgumentParser
import Zinc
import ZincBrowser
import ZincServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve catalogs over HTTP.",
        discussion: """
            Serves the static files of one catalog at / and at /<catalog id>/ (--catalog), or \
            of every catalog folder below DIR at /<folder>/ (--root), with ranges, validators and the catalog's cache \
            rules. One access-log line per request goes to stderr. SIGINT or SIGTERM stops \
            the server after the responses in flight. Read-only pages for browsing the \
            catalogs (bundles, versions, files with previews, diffs, update costs) are at \
            /~zinc/ unless --no-browser is given.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The catalog to serve at /: a path, file:// URL or the id of a catalog under catalogs/ (default: $ZINC_CATALOG).",
            valueName: "CAT"
        ))
    var catalog: String?

    @Option(help: ArgumentHelp("Serve every catalog folder below DIR at /<folder>/.", valueName: "DIR"))
    var root: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Flag(help: "Serve only the catalog files, without the browsing pages at /~zinc/.")
    var noBrowser = false

    /// --catalog, or $ZINC_CATALOG when neither --catalog nor --root is given.
    private var servedCatalog: String? {
        guard root == nil else { return nil }
        return catalog ?? ProcessInfo.processInfo.environment["ZINC_CATALOG"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard catalog == nil || root == nil else { throw ValidationError("Give exactly one of --catalog or --root.") }
        guard servedCatalog != nil || root != nil else {
            throw ValidationError("Give exactly one of --catalog or --root (or set ZINC_CATALOG).")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
    }

    func run() async throws {
        let directory: URL
        let mode: ServerConfiguration.Mode
        var catalogID: String?
        var browser: CatalogBrowser.Source?
        var rootWarning: String?
        if let catalog = servedCatalog {
            if storageRegistry.isRemote(catalog) {
                throw CLIError.remoteCatalogNotServable(catalog)
            }
            let location = try CatalogLocation.resolve(catalog)
            directory = location.rootURL
            mode = .singleCatalog
            // A folder whose index cannot be read is still served, at / only: its files
            // may be what the person serving it wants to look at.
            catalogID = try? Catalog.open(at: location).index().id
            browser = catalogID.map { .catalog(root: location.rootPath, id: $0) }
        } else {
            directory = URL(fileURLWithPath: root ?? ".", isDirectory: true).standardizedFileURL
            mode = .catalogRoot
            browser = .folder(directory.path)
            rootWarning = try Self.rootWarning(directory.path)
        }
        if noBrowser { browser = nil }
        let server = CatalogHTTPServer(
            configuration: ServerConfiguration(
                root: directory,
                mode: mode,
                catalogID: catalogID,
                host: host,
                port: port,
                accessLog: { StandardError.write($0 + "\n") },
                routes: browser.map { CatalogBrowser(source: $0) }
            )
        )
        let boundPort: Int
        do {
            boundPort = try await server.start()
        } catch let error as BindError {
            throw error
        } catch {
            throw CLIError.cannotServe(directory: directory.path, host: host, port: port, error: error)
        }
        let urlHost = host.contains(":") ? "[\(host)]" : host
        let base = "http://\(urlHost):\(boundPort)/"
        // Scripts and benchmarks read the address from this first line: keep its form.
        StandardError.write("Serving \(directory.path) on \(base)\n")
        if let catalogID {
            StandardError.write(
                "Catalog '\(catalogID)' is also at \(base)\(catalogID)/: give clients that add the "
                    + "catalog id to their URL (JavaZinc, the Python tool) the base URL \(base)\n")
        }
        if browser != nil {
            StandardError.write("Browse the catalogs at \(base)~zinc/\n")
        }
        if let rootWarning { StandardError.write("warning: \(rootWarning)\n") }
        try await server.run()
    }

    /// A `--root` that is missing is an error; one that is itself a catalog, or holds
    /// none yet, is served, with a word on what a client will (not) find there.
    private static func rootWarning(_ folder: String) throws -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw ValidationError("--root '\(folder)' is not a folder that can be read")
        }
        if CatalogLocation.isCatalog(folder) {
            return "'\(folder)' is itself a catalog: --root serves the catalogs in its subfolders; "
                + "serve this one with --catalog \(folder)"
        }
        guard !names.contains(where: { !$0.hasPrefix(".") && CatalogLocation.isCatalog(folder + "/" + $0) }) else { return nil }
        return "no catalog in '\(folder)' yet: each catalog folder created in it will be served at /<folder>/"
    }
}
