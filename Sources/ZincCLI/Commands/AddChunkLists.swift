import ArgumentParser
import Zinc

struct AddChunkLists: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add_chunk_lists",
        abstract: "Give versions written before chunk lists one, so clients update their large files by chunks.",
        discussion: """
            For each version without chunks/B-V.json.gz, reads its raw objects of 2 MiB or more from the \
            catalog, cuts them into content-defined chunks and writes the list. No object is rewritten, so \
            what clients cache stays valid. Gzipped objects written without chunk lists are fetched whole \
            until a new version stores them again. Imports write chunk lists themselves.
            """,
        aliases: ["add-chunk-lists"]
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("id")], help: "Only this bundle's versions (default: every bundle).")
    var bundle: String?

    @Flag(help: "Print one JSON document instead: {\"written\": [path, ...], \"chunked_objects\", \"bytes_read\"}.")
    var json = false

    func run() throws {
        let report = try ChunkListBackfill(catalog.reference.open(), bundle: bundle).run()
        if json {
            return try printJSON(Report(written: report.written, chunkedObjects: report.chunkedObjects, bytesRead: report.bytesRead))
        }
        for path in report.written { print("wrote \(path)") }
        print(
            "Added chunk lists to \(report.written.count) version\(report.written.count == 1 ? "" : "s") "
                + "(\(report.chunkedObjects) object\(report.chunkedObjects == 1 ? "" : "s"), "
                + "\(HumanFormat.bytes(report.bytesRead)) read)")
    }
}

extension AddChunkLists {
    /// `add_chunk_lists --json`: the chunk lists written, and the objects and bytes read.
    struct Report: Encodable {
        let written: [String]
        let chunkedObjects: Int
        let bytesRead: Int64
    }
}
