import ArgumentParser
import Logging
import ZincClient

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

            Each command also answers to its name with '-' for '_' (update-bundle). The \
            Python tool's spellings (bundle:update, catalog:list, ...) work too: \
            'zinc help python-aliases' lists them. 'zinc --version' prints the version.

            \(ExitStatus.summary)
            """,
        subcommands: [Version.self, PythonAliasesTopic.self] + PythonAliasesTopic.commands,
        groupedSubcommands: [
            CommandGroup(
                name: "catalog",
                subcommands: [
                    CreateCatalog.self, UpdateBundle.self, UpdateDistro.self, Promote.self, UpdateFlavorspec.self,
                    UpdateArchivePolicy.self, Publish.self, Keygen.self,
                    Sign.self, RolloutGroup.self,
                ]),
            CommandGroup(
                name: "inspect",
                subcommands: [
                    ListCatalog.self, ListBundle.self, ListFlavorspecs.self, DumpIndex.self, DumpManifest.self, Diff.self,
                    CloneBundle.self, ExportSeed.self,
                ]),
            CommandGroup(
                name: "maintain",
                subcommands: [
                    Verify.self, Clean.self, Prune.self, DeleteBundle.self, DeleteDistro.self, DeleteFlavorspec.self,
                    AddChunkLists.self, AddContentSizes.self, AddManifestChunks.self,
                ]),
            CommandGroup(name: "serve", subcommands: [Serve.self]),
            CommandGroup(name: "client", subcommands: [RepoInit.self, Track.self, Untrack.self, Sync.self, Status.self, RepoGroup.self]),
        ]
    )

    /// Runs the parsed command, async ones (`serve`) included, and prints every error as
    /// `zinc: error: …`: a library error with exit status 1, a usage error (ArgumentParser's,
    /// or a mistyped command name) with 64 and the usage lines. See `ExitStatus`.
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
        // One arena for every thread: each arena keeps the blocks freed in it, so the
        // hashing workers', archive fillers' and manifest encoder's arenas added 1 to
        // 9 MB to corpus S's peak, varying from run to run. The workers' small blocks
        // come from their thread caches without taking its lock: no slower import was
        // measured.
        mallopt(M_ARENA_MAX, 1)
        #endif
        var arguments = NegativeVersionValue.joined(Array(CommandLine.arguments.dropFirst()))
        var pythonOptions = PythonGlobalOptions()
        do {
            if let split = try PythonGlobalOptions.split(arguments) { (pythonOptions, arguments) = split }
        } catch {
            report(error)
        }
        let logLevel = pythonOptions.logLevel
        LoggingSystem.bootstrap { _ in StderrLogHandler(logLevel: logLevel) }
        if let config = pythonOptions.config {
            Logger(label: "zinc").warning(
                "ignoring '\(config)': zinc does not read the Python tool's config file (bookmarks, storages, coordinators); give -c the catalog's path or URL"
            )
        }
        // Only `zinc --version` alone: several commands have a `--version VERSION` of
        // their own, which ArgumentParser's built-in version flag would take over.
        if arguments == ["--version"] {
            print(Version.text)
            return
        }
        // A sync from HTTP starts loading libcurl as it opens its repo (Sync.run); not
        // exiting while it loads (a sync with nothing to do can end that soon).
        defer { waitForDefaultTransport() }
        // The command parsed, for errors its run throws: a usage error then shows its usage.
        var parsed: ParsableCommand.Type?
        do {
            var command = try parseAsRoot(arguments)
            parsed = type(of: command)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            waitForDefaultTransport()  // before any exit
            // A first word that names no command can only have failed to parse: a usage
            // error (status 64) that names the command meant.
            // A command line that did not parse because of an option the command does
            // not know: that option, whatever else ArgumentParser found missing.
            if let message = unknownCommandMessage(arguments) ?? (parsed == nil ? unknownOptionMessage(arguments, error: error) : nil) {
                StandardError.write(errorText(message))
                exit(withError: ExitStatus.usage)
            }
            report(error, of: parsed)
        }
    }

    /// Prints `error` as `zinc: error: …` and exits with its `ExitStatus.of` status. Its
    /// message is the error's own `description` (ArgumentParser's, with the usage lines,
    /// for a wrong command line). Help and `ExitCode`s (verify's problems found) print
    /// nothing here: ArgumentParser shows the help itself, and verify has printed its
    /// report.
    /// A usage error that a command's run found (a required value missing from both its
    /// option and the environment), with that command's usage rather than zinc's.
    private static func usageError(_ error: any Error, of command: ParsableCommand.Type?) -> String? {
        guard let command, command != ZincCommand.self, error is ValidationError else { return nil }
        return "\(error)\n" + usageLines(for: command)
    }

    /// `Usage: zinc list [...]` and `See 'zinc list --help' …`: what a usage error of
    /// `command` ends with.
    static func usageLines(for command: ParsableCommand.Type) -> String {
        let usage = usageString(for: command)
        let path = usage.split(separator: " ").prefix { !["[", "<", "-"].contains($0.first) }.joined(separator: " ")
        return "Usage: \(usage)\n  See '\(path) --help' for more information."
    }

    private static func report(_ error: any Error, of command: ParsableCommand.Type? = nil) -> Never {
        // The client's calls throw SyncError; `zinc` words and sorts the failure it wraps,
        // so its lines and statuses do not depend on the client's classification.
        if let error = error as? SyncError { report(error.cause, of: command) }
        let status = ExitStatus.of(error)
        let message = (usageError(error, of: command) ?? fullMessage(for: error)) + (remedy(for: error).map { "; " + $0 } ?? "")
        if status == ExitStatus.success || message.isEmpty { exit(withError: error) }
        StandardError.write(errorText(message))
        exit(withError: status)
    }
}
