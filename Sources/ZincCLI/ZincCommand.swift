import ArgumentParser
import Logging
#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif

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
            Publish.self,
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
        #if canImport(CGlibcMalloc)
        // Imports build tables of 100,000 files phase by phase and drop them. glibc
        // raises its mmap threshold each time a large block is freed, after which the
        // next tables land in the heap and their pages stay resident; with a fixed
        // threshold they go back to the system when freed (corpus S peaked 4 MB lower).
        // It sits above the 1 MiB read buffers each file gets, and the trim threshold
        // (fixed too, once the mmap one is) above that: those buffers are reused from
        // the heap, where mapping and trimming them per file cost corpus A a third of
        // its time in page faults.
        mallopt(M_MMAP_THRESHOLD, 2 << 20)
        mallopt(M_TRIM_THRESHOLD, 4 << 20)
        #endif
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
