import ArgumentParser
import Zinc

struct AddContentSizes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add_content_sizes",
        abstract: "Give versions imported before sizes files one, so list --sizes shows every content size.",
        discussion: """
            For each version without sizes/B-V.json.gz, reads its objects stored gzipped from the \
            catalog (each must hash to its name), and writes the size of their content. Nothing \
            else is written, and clients never read these files. Imports write sizes files \
            themselves.
            """,
        aliases: ["add-content-sizes"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("id")], help: "Only this bundle's versions (default: every bundle).")
    var bundle: String?

    @Flag(help: "Print one JSON document instead: {\"written\": [path, ...], \"measured_objects\", \"bytes_read\"}.")
    var json = false

    func run() throws {
        let report = try ContentSizeBackfill(catalog.reference.open(), bundle: bundle).run()
        if json {
            return try printJSON(Report(written: report.written, measuredObjects: report.measuredObjects, bytesRead: report.bytesRead))
        }
        for path in report.written { print("wrote \(path)") }
        print(
            "Added sizes files to \(HumanFormat.count(report.written.count, "version")) "
                + "(\(HumanFormat.count(report.measuredObjects, "gzipped object")), \(HumanFormat.bytes(report.bytesRead)) read)")
    }
}

extension AddContentSizes {
    /// `add_content_sizes --json`: the sizes files written, and the objects and bytes read.
    struct Report: Encodable {
        let written: [String]
        let measuredObjects: Int
        let bytesRead: Int64
    }
}
