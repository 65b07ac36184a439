import ArgumentParser
import Zinc

struct UpdateBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update_bundle",
        abstract: "Import a folder as a new version of a bundle.",
        discussion: """
            Every file under --source becomes part of the version. Nothing is created when \
            the files equal the newest version's, unless --force. --flavors SPEC is a \
            flavorspec file, or the name of one stored in the catalog (see update_flavorspec): \
            each flavor with more than one file gets its own archive, and the all-files \
            archive is written only with --include-master-archive.

            Left out: what the default ignore list names (.git/, .svn/, .hg/, .DS_Store, \
            Thumbs.db, desktop.ini, *~, .*.swp, .zincignore; --no-default-ignores keeps \
            them), the patterns of a .zincignore file at the source root, and --exclude \
            patterns, all in gitignore syntax (a later pattern wins; !PATTERN takes a path \
            back). Zinc catalogs and client repos found inside the source are skipped with \
            a warning.
            """,
        aliases: ["update-bundle"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("name"), .customLong("id")], help: "The bundle name (--id is a synonym).")
    var name: String

    @Option(help: "The folder to import.")
    var source: String

    @Flag(help: "Create a new version even when nothing changed.")
    var force = false

    @OptionGroup var options: ImportOptions

    func run() throws {
        try reportingErrors {
            switch try Self.importVersion(catalog: try catalog.reference, bundle: name, source: source, force: force, options: options) {
            case .created(let version):
                print("Created bundle '\(name)' version \(version)")
            case .unchanged(let version):
                print("Bundle '\(name)' unchanged at version \(version)")
            }
        }
    }

    /// The import itself, shared with the Python-tool spelling `bundle:update`, which
    /// reports the result differently.
    static func importVersion(catalog location: CatalogReference, bundle: String, source: String, force: Bool,
                              options: ImportOptions) throws -> BundleUpdateResult {
        let catalog = try location.open()
        let flavorspec = try options.flavors.map { try catalog.flavorspecs.resolve($0) }
        let bar = ProgressBar(quiet: options.quiet)
        defer { bar.finish() }
        let updateOptions = BundleUpdateOptions(
            force: force, flavorspec: flavorspec, includeMasterArchive: options.includeMasterArchive,
            progress: { progress in
                bar.update(progress.phase.rawValue.capitalized, files: progress.completedFiles, of: progress.totalFiles,
                           bytes: progress.completedBytes, of: progress.totalBytes)
            },
            statCacheFolder: options.noStatCache ? nil : StatCache.defaultFolder,
            workers: options.parallelism.jobs, excludes: options.excludes, defaultIgnores: !options.noDefaultIgnores)
        return try catalog.updateBundle(bundle, from: source, options: updateOptions)
    }
}

/// How to import, in both spellings (update_bundle and bundle:update).
struct ImportOptions: ParsableArguments {
    @Option(help: "A flavorspec file, or the name of a flavorspec stored in the catalog.")
    var flavors: String?

    @Flag(help: "With --flavors, also write the archive of all files.")
    var includeMasterArchive = false

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "Leave out the paths this gitignore pattern matches (repeatable).", valueName: "pattern"))
    var excludes: [String] = []

    @Flag(help: "Import what the default ignore list leaves out (.git/, .DS_Store, editor backups...).")
    var noDefaultIgnores = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @Flag(help: ArgumentHelp("Hash every file even when the stat cache says it is unchanged.",
                             discussion: "The cache lives in $ZINC_CACHE_DIR, else $XDG_CACHE_HOME/zinc, else ~/.cache/zinc."))
    var noStatCache = false

    @OptionGroup var parallelism: JobsOption
}
