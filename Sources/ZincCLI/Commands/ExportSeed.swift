import ArgumentParser
import Zinc

struct ExportSeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export_seed",
        abstract: "Write a seed: one bundle version's files, as an app ships them, with what a client needs to start from them offline.",
        discussion: """
            DIR (which must not exist) gets seed.json, seed-distro.json naming the distribution \
            when the version is chosen by one (--distro, master by default; not with \
            --version N or latest), the index and the version's manifest as \
            clients download them (catalog.json.gz, manifests/B-V.json.gz), their signatures \
            when the catalog is signed, and files/ with the version's files (of --flavor), \
            each SHA-1 checked and made read-only. An app ships DIR inside itself and starts \
            its repo from it with 'zinc repo seed' (Repo.seed in ZincClient): no request, the \
            bundle tracked at the seed's distribution, and the first sync fetches only what changed since. DIR appears only once complete. \
            See 'Seeds' in docs/FORMAT.md.
            """,
        aliases: ["export-seed"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("name")], help: "The bundle name (--name is a synonym).")
    var bundle: String

    @Option(help: "A version number or 'latest' (default: the version --distro points at).")
    var version: String?

    @Option(help: "The distribution whose version to export, which clients started from the seed then follow (default: master).")
    var distro: String?

    @Option(help: "Export only the files of this flavor.")
    var flavor: String?

    @Option(help: ArgumentHelp("The seed folder to create.", valueName: "DIR"))
    var out: String

    @Flag(help: "Print one JSON document: catalog, bundle, version, flavor, distro, folder, files, bytes, signing_keys.")
    var json = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @OptionGroup var parallelism: JobsOption

    func validate() throws {
        if version != nil && distro != nil { throw ValidationError("Give --version or --distro, not both.") }
    }

    func run() throws {
        let opened = try catalog.reference.open()
        let spec = try version.map { try VersionSpec($0, of: bundle, in: opened) } ?? .distro(distro ?? "master")
        let bar = ProgressBar(quiet: quiet || json)
        defer { bar.finish() }  // on failure too, so the error starts on a line of its own
        let options = SeedExportOptions(
            flavor: flavor,
            progress: { progress in
                bar.update(
                    "Exporting", files: progress.completedFiles, of: progress.totalFiles, bytes: progress.completedBytes,
                    of: progress.totalBytes)
            }, workers: parallelism.jobs)
        let result = try SeedExport(opened, bundle: bundle, version: spec, to: out, options: options).run()
        bar.finish()
        if json {
            try printJSON(result)
            return
        }
        let signed =
            (result.signingKeys.isEmpty ? "unsigned" : "signed by key " + result.signingKeys.joined(separator: ", "))
            + (result.seed.distro.map { ", distribution '\($0)'" } ?? "")
        print(
            "Exported a seed of '\(result.seed.bundle)' version \(result.seed.version)"
                + (result.seed.flavor.map { ", flavor '\($0)'" } ?? "")
                + " (\(HumanFormat.count(result.fileCount, "file")), \(HumanFormat.bytes(result.bytes)), \(signed)) to \(result.folder)")
    }
}
