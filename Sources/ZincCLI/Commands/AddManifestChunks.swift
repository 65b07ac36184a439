import ArgumentParser
import Zinc

struct AddManifestChunks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add_manifest_chunks",
        abstract: "Give versions written before manifest chunks a description, so clients fetch their manifests as deltas.",
        discussion: """
            For each version without manifest-chunks/B-V.json.gz, reads its manifest, writes a copy of it \
            gzipped at content-defined chunks (manifest-chunks/B-V.manifest.json.gz) and the description \
            naming it. No manifest is rewritten, so what clients cache stays valid. Imports write \
            descriptions themselves.
            """,
        aliases: ["add-manifest-chunks"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("id")], help: "Only this bundle's versions (default: every bundle).")
    var bundle: String?

    @Flag(help: "Print one JSON document instead: {\"written\": [path, ...], \"bytes_read\"}.")
    var json = false

    func run() throws {
        let report = try ManifestChunksBackfill(catalog.reference.open(), bundle: bundle).run()
        if json { return try printJSON(Report(written: report.written, bytesRead: report.bytesRead)) }
        for path in report.written { print("wrote \(path)") }
        let versions = report.written.filter { !$0.hasSuffix(".manifest.json.gz") }.count
        print(
            "Added manifest chunks to \(versions) version\(versions == 1 ? "" : "s") (\(HumanFormat.bytes(report.bytesRead)) of manifests read)"
        )
    }
}

extension AddManifestChunks {
    /// `add_manifest_chunks --json`: the files written and the manifest bytes read.
    struct Report: Encodable {
        let written: [String]
        let bytesRead: Int64
    }
}
