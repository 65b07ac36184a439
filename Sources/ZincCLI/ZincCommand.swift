import ArgumentParser
import Logging

@main
struct ZincCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zinc",
        abstract: "Build and manage Zinc asset catalogs: content-addressed bundles, versions and distributions.",
        discussion: """
            A catalog is a folder of static files (objects by SHA-1, gzipped JSON manifests, \
            catalog.json, LMFO tar archives) that any static HTTP host, S3 bucket or CDN can serve.
            CAT is a path, a file:// URL, or the id of a catalog under ./catalogs/.
            """,
        subcommands: [
            CreateCatalog.self,
            UpdateBundle.self,
            UpdateDistro.self,
            ListCatalog.self,
            ListBundle.self,
            CloneBundle.self,
            DumpIndex.self,
            DumpManifest.self,
            UpdateFlavorspec.self,
            ListFlavorspecs.self,
            DeleteFlavorspec.self,
            Verify.self,
            Clean.self,
            DeleteBundle.self,
            DeleteDistro.self,
            Serve.self,
            RepoInit.self,
            Track.self,
            Untrack.self,
            Sync.self,
            Status.self,
            // The Python tool's spellings, so its users' scripts keep working.
            CatalogCreateAlias.self,
            CatalogListAlias.self,
            BundleUpdateAlias.self,
            BundleListAlias.self,
            BundleCloneAlias.self,
            DistroUpdateAlias.self,
            FlavorspecListAlias.self,
            FlavorspecUpdateAlias.self,
            FlavorspecDeleteAlias.self,
            DumpIndexAlias.self,
            DumpManifestAlias.self,
            CatalogVerifyAlias.self,
            BundleVerifyAlias.self,
            CatalogCleanAlias.self,
            BundleDeleteAlias.self,
            DistroDeleteAlias.self,
        ]
    )

    /// Runs the parsed command, async ones (`serve`) included, and prints a library
    /// error as `zinc: error: …` with exit status 1.
    static func main() async {
        LoggingSystem.bootstrap { _ in StderrLogHandler() }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as ValidationFailure {
            StandardError.write("zinc: error: \(failure.message)\n")
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
