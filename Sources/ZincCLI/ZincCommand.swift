import ArgumentParser
import Logging

@main
struct ZincCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zinc",
        abstract: "Build and manage Zinc asset catalogs: content-addressed bundles, versions and distributions.",
        discussion: """
            A catalog is a folder of static files (objects by SHA-1, gzipped JSON manifests, \
            catalog.json, LMFO tar archives) that any static HTTP host, S3 bucket or CDN can serve.
            CAT is a path, a file:// URL, or the id of a catalog under ./catalogs/.
            """,
        version: "0.1.0",
        subcommands: [
            CreateCatalog.self,
            UpdateBundle.self,
            UpdateDistro.self,
        ]
    )

    static func main() {
        LoggingSystem.bootstrap { _ in StderrLogHandler() }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ValidationFailure {
            StandardError.write("zinc: error: \(failure.message)\n")
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
