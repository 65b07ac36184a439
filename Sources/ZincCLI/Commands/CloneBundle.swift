import ArgumentParser
import Zinc

struct CloneBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone_bundle",
        abstract: "Write the files of one bundle version to a local folder.",
        discussion: """
            The files go to DEST/<catalog id>.<bundle>-<version>[~<flavor>]/, the folder name \
            clients use, which must not exist yet. Every file's SHA-1 is checked, and the \
            folder appears only once it is complete. --include-manifest also writes the \
            manifest beside it, as DEST/<catalog id>.<bundle>-<version>[~<flavor>].json, \
            so the bundle folder holds exactly the bundle's files.
            """,
        aliases: ["clone-bundle"]
    )

    @OptionGroup var target: BundleVersionOptions

    @Option(help: "The folder to clone into (created when missing).")
    var dest: String

    @OptionGroup var options: CloneOptions

    func run() throws {
        try Self.clone(catalog: try target.catalog.reference, bundle: target.name, version: target.version, into: dest, options: options)
    }

    /// The whole command, shared with its Python-tool spelling `bundle:clone`.
    static func clone(
        catalog location: CatalogReference, bundle: String, version: String, into dest: String,
        options: CloneOptions
    ) throws {
        let catalog = try location.open()
        let bar = ProgressBar(quiet: options.quiet)
        defer { bar.finish() }  // on failure too, so the error starts on a line of its own
        let cloneOptions = BundleCloneOptions(
            flavor: options.flavor, includeManifest: options.includeManifest,
            progress: { progress in
                bar.update(
                    "Cloning", files: progress.completedFiles, of: progress.totalFiles,
                    bytes: progress.completedBytes, of: progress.totalBytes)
            }, workers: options.parallelism.jobs)
        let result = try BundleClone(
            catalog, bundle: bundle, version: VersionSpec(version, of: bundle, in: catalog), into: dest, options: cloneOptions
        ).run()
        bar.finish()
        print("Cloned '\(bundle)' version \(result.version) (\(result.fileCount) files) to \(result.folder)")
        if let manifestFile = result.manifestFile { print("Wrote its manifest to \(manifestFile)") }
    }
}

/// What to clone and how, in both spellings (clone_bundle and bundle:clone).
struct CloneOptions: ParsableArguments {
    @Option(help: "Clone only the files of this flavor.")
    var flavor: String?

    @Flag(help: "Also write the manifest JSON beside the bundle folder.")
    var includeManifest = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @OptionGroup var parallelism: JobsOption
}
