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
            archive is written only with --include-master-archive. Archives are written at \
            import only when the catalog keeps them for every version (see \
            update_archive_policy); otherwise update_distro writes them when a distribution \
            is to name the version.

            Left out: what the default ignore list names (.git/, .svn/, .hg/, .DS_Store, \
            Thumbs.db, desktop.ini, *~, .*.swp, .zincignore; --no-default-ignores keeps \
            them), the patterns of a .zincignore file at the source root, and --exclude \
            patterns, all in gitignore syntax (a later pattern wins; !PATTERN takes a path \
            back). Zinc catalogs (even empty ones) and client repos found inside the source \
            are skipped with a warning.

            Ctrl-C (or SIGTERM) stops an import and says whether its version was committed; \
            if not, the files it wrote are recorded as never listed, and 'clean --force' \
            removes them once the grace period has passed.
            """,
        aliases: ["update-bundle"]
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Option(
        name: [.customLong("bundle"), .customLong("name"), .customLong("id")],
        help: "The bundle name (--name and --id are synonyms).")
    var name: String

    @Option(help: "The folder to import.")
    var source: String

    @Flag(help: "Create a new version even when nothing changed.")
    var force = false

    @Flag(help: "Only say what would be added, removed and changed, and what would be written.")
    var dryRun = false

    @Flag(help: "Print one JSON document instead (see docs/JSON.md).")
    var json = false

    @OptionGroup var options: ImportOptions

    func run() throws {
        if dryRun { return try preview() }
        let start = ContinuousClock.now
        let reference = try catalog.reference.signed(by: signing)
        let summary = try Self.importVersion(
            catalog: reference, bundle: name, source: source,
            force: force, options: options, quiet: options.quiet || json)
        let seconds = (ContinuousClock.now - start).inSeconds
        // Read after the import: the figures of the version as stored.
        var growth: GrowthReport?
        if case .created(let version) = summary.result {
            let opened = try reference.open()
            growth = GrowthReport(
                growth: try VersionGrowth(
                    of: name, version: version, in: opened, newObjects: summary.newObjects, objectBytes: summary.objectBytes),
                keepsEveryArchive: try opened.archivePolicy() == .all, isPreview: false)
        }
        if json {
            let version: Int, unchanged: Bool
            switch summary.result {
            case .created(let v): (version, unchanged) = (v, false)
            case .unchanged(let v): (version, unchanged) = (v, true)
            }
            return try printJSON(
                Report(
                    bundle: name, version: version, unchanged: unchanged, newBundle: summary.isNewBundle, files: summary.files,
                    newObjects: summary.newObjects, objectBytes: summary.objectBytes, archiveBytes: summary.archiveBytes,
                    bytesWritten: summary.bytesWritten, seconds: seconds, growth: growth))
        }
        switch summary.result {
        case .created(let version):
            print("Created bundle '\(name)' version \(version)" + (summary.isNewBundle ? " (new bundle)" : ""))
        case .unchanged(let version):
            print("Bundle '\(name)' unchanged at version \(version)")
        }
        for line in growth?.lines ?? [] { print(line) }
    }

    /// `--dry-run`: one line per path that would change (A added, M changed, D removed),
    /// then a summary.
    private func preview() throws {
        let preview: ImportPreview
        let writesArchives: Bool
        do {
            let catalog = try catalog.reference.open()
            preview = try BundleImport(
                catalog, bundle: name, from: source,
                options: try Self.importOptions(for: catalog, force: force, options: options, bar: nil)
            ).preview()
            writesArchives = try catalog.archivePolicy() == .all
        }
        let growth = GrowthReport(growth: preview.growth, keepsEveryArchive: writesArchives, isPreview: true)
        if json {
            return try printJSON(PreviewReport(bundle: name, preview: preview, force: force, growth: growth))
        }
        let lines = preview.added.map { ("A", $0) } + preview.changed.map { ("M", $0) } + preview.removed.map { ("D", $0) }
        for (mark, path) in lines.sorted(by: { $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }) { print("\(mark)  \(path)") }
        if preview.isUnchanged && !force {
            print("Bundle '\(name)' would stay unchanged at version \(preview.previousVersion!)")
            return
        }
        let against = preview.previousVersion.map { " (against version \($0))" } ?? " (new bundle)"
        print(
            "Would create a new version of '\(name)'\(against): \(HumanFormat.count(preview.files)) files, "
                + "\(HumanFormat.count(preview.added.count)) added, \(HumanFormat.count(preview.changed.count)) changed, "
                + "\(HumanFormat.count(preview.removed.count)) removed; \(HumanFormat.count(preview.growth.newObjects)) new "
                + "object\(preview.growth.newObjects == 1 ? "" : "s") "
                + "(\(HumanFormat.bytes(preview.growth.objectBytes)) before compression)"
                + (writesArchives ? " and its archive" : "")
        )
        for line in growth.lines { print(line) }
    }

    /// The import itself, shared with the Python-tool spelling `bundle:update`, which
    /// reports the result differently.
    static func importVersion(
        catalog location: CatalogReference, bundle: String, source: String, force: Bool,
        options: ImportOptions, quiet: Bool
    ) throws -> ImportSummary {
        // Written through the interruption's store, so that Ctrl-C can say what was committed.
        let interruption = ImportInterruption(wrapping: try location.registry.catalogStorage(location.text))
        let catalog = try Catalog.open(
            interruption.storage, signer: location.signer, allowsUnsignedChanges: location.allowsUnsignedChanges)
        let bar = ProgressBar(quiet: quiet)
        defer { bar.finish() }
        return try InterruptedImport.run(interruption, bundle: bundle, catalog: location, bar: bar) {
            try BundleImport(
                catalog, bundle: bundle, from: source,
                options: try importOptions(for: catalog, force: force, options: options, bar: bar)
            ).run()
        }
    }

    private static func importOptions(
        for catalog: Catalog, force: Bool, options: ImportOptions,
        bar: ProgressBar?
    ) throws -> BundleImportOptions {
        var progress: (@Sendable (ImportProgress) -> Void)?
        if let bar, bar.isShown {
            progress = { progress in
                bar.update(
                    progress.phase.rawValue.capitalized, files: progress.completedFiles, of: progress.totalFiles,
                    bytes: progress.completedBytes, of: progress.totalBytes)
            }
        }
        return BundleImportOptions(
            force: force, flavorspec: try options.flavors.map { try catalog.flavorspecs.resolve($0) },
            includeMasterArchive: options.includeMasterArchive, progress: progress,
            statCacheFolder: options.noStatCache ? nil : StatCache.defaultFolder,
            workers: options.parallelism.jobs, excludes: options.excludes, defaultIgnores: !options.noDefaultIgnores)
    }
}

/// How to import, in both spellings (update_bundle and bundle:update).
struct ImportOptions: ParsableArguments {
    @Option(help: "A flavorspec file, or the name of a flavorspec stored in the catalog.")
    var flavors: String?

    @Flag(help: "With --flavors, also write the archive of all files.")
    var includeMasterArchive = false

    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp(
            "Leave out the paths this gitignore pattern matches (repeatable).", valueName: "pattern"))
    var excludes: [String] = []

    @Flag(help: "Import what the default ignore list leaves out (.git/, .DS_Store, editor backups...).")
    var noDefaultIgnores = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @Flag(
        help: ArgumentHelp(
            "Hash every file even when the stat cache says it is unchanged.",
            discussion: "The cache lives in $ZINC_CACHE_DIR, else $XDG_CACHE_HOME/zinc, else ~/.cache/zinc."))
    var noStatCache = false

    @OptionGroup var parallelism: JobsOption
}

extension UpdateBundle {
    /// `update_bundle --json`: the version made (or kept) and what the import wrote.
    struct Report: Encodable {
        let bundle: String
        let version: Int
        let unchanged: Bool
        let newBundle: Bool
        let files: Int
        let newObjects: Int
        let objectBytes: Int64
        let archiveBytes: Int64
        let bytesWritten: Int64
        let seconds: Double
        /// nil when no version was created: `"storage"` and `"update"` are then null.
        let growth: GrowthReport?

        private enum CodingKeys: CodingKey {
            case bundle, version, unchanged, newBundle, files, newObjects, objectBytes, archiveBytes, bytesWritten
            case seconds, storage, update
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(version, forKey: .version)
            try container.encode(unchanged, forKey: .unchanged)
            try container.encode(newBundle, forKey: .newBundle)
            try container.encode(files, forKey: .files)
            try container.encode(newObjects, forKey: .newObjects)
            try container.encode(objectBytes, forKey: .objectBytes)
            try container.encode(archiveBytes, forKey: .archiveBytes)
            try container.encode(bytesWritten, forKey: .bytesWritten)
            try container.encode(seconds, forKey: .seconds)
            guard let growth else {
                try container.encodeNil(forKey: .storage)
                return try container.encodeNil(forKey: .update)
            }
            try growth.encode(to: encoder)
        }
    }

    /// `update_bundle --dry-run --json`: what the import would change; `previous_version`
    /// null for a new bundle.
    struct PreviewReport: Encodable {
        let bundle: String
        let preview: ImportPreview
        /// `--force` makes a version even of unchanged content.
        let force: Bool
        let growth: GrowthReport

        private enum CodingKeys: CodingKey {
            case bundle, dryRun, previousVersion, unchanged, files, added, removed, changed, newObjects, newObjectBytes
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(true, forKey: .dryRun)
            try container.encode(preview.previousVersion, forKey: .previousVersion)
            try container.encode(preview.isUnchanged && !force, forKey: .unchanged)
            try container.encode(preview.files, forKey: .files)
            try container.encode(preview.added, forKey: .added)
            try container.encode(preview.removed, forKey: .removed)
            try container.encode(preview.changed, forKey: .changed)
            try container.encode(preview.growth.newObjects, forKey: .newObjects)
            try container.encode(preview.growth.objectBytes, forKey: .newObjectBytes)
            try growth.encode(to: encoder)
        }
    }
}
