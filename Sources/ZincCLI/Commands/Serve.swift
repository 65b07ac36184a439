import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zinc
import ZincServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve catalogs over HTTP.",
        discussion: """
            Serves the static files of one catalog at / (--catalog), or of every catalog folder \
            below DIR at /<folder>/ (--root), with ranges, validators and the catalog's cache \
            rules. One access-log line per request goes to stderr. SIGINT or SIGTERM stops \
            the server after the responses in flight.
            """
    )

    @Option(help: ArgumentHelp(
        "The catalog to serve at /: a path, file:// URL or the id of a catalog under catalogs/.",
        valueName: "CAT"
    ))
    var catalog: String?

    @Option(help: ArgumentHelp("Serve every catalog folder below DIR at /<folder>/.", valueName: "DIR"))
    var root: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    func validate() throws {
        guard (catalog == nil) != (root == nil) else {
            throw ValidationError("Give exactly one of --catalog or --root.")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
    }

    func run() async throws {
        let directory: URL
        let mode: ServerConfiguration.Mode
        if let catalog {
            if storageRegistry.isRemote(catalog) {
                throw ValidationFailure(message: "'\(catalog)': serve serves a local folder; a bucket is served by "
                                        + "its own endpoint or a CDN in front of it (see 'Publishing to S3' in the README)")
            }
            directory = try reportingErrors { try CatalogLocation.resolve(catalog).rootURL }
            mode = .singleCatalog
        } else {
            directory = URL(fileURLWithPath: root ?? ".", isDirectory: true).standardizedFileURL
            mode = .catalogRoot
        }
        let server = CatalogHTTPServer(
            configuration: ServerConfiguration(
                root: directory,
                mode: mode,
                host: host,
                port: port,
                accessLog: { StandardError.write($0 + "\n") }
            )
        )
        let boundPort: Int
        do {
            boundPort = try await server.start()
        } catch {
            throw ValidationFailure(message: "cannot serve \(directory.path) on \(host):\(port): \(error)")
        }
        let urlHost = host.contains(":") ? "[\(host)]" : host
        StandardError.write("Serving \(directory.path) on http://\(urlHost):\(boundPort)/\n")
        try await server.run()
    }
}
