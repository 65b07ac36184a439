import ArgumentParser
import Zinc

struct ListBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list_bundle",
        abstract: "List the files of one bundle version.",
        discussion: """
            One path per line, sorted; with --sha each line is '<sha> <path>'. With --sizes, a \
            table of each file's size (its content's), stored size and format, then the \
            totals: files, size and the stored size of the distinct objects, what a client \
            holding nothing downloads. A version imported before sizes files shows '—' for \
            the content size of a file stored gzipped, and '+' after its total, until \
            'zinc add_content_sizes' records them; the output then says so once.
            """,
        aliases: ["list-bundle"]
    )

    @OptionGroup var target: BundleVersionOptions

    @Option(help: "List only the files of this flavor.")
    var flavor: String?

    @Flag(help: "Print each file's SHA-1 before its path.")
    var sha = false

    @Flag(help: "Print each file's size, stored size and format, and the totals.")
    var sizes = false

    @Flag(
        help: """
            Print one JSON document: {"catalog", "bundle", "version", "flavor", "files": [{"path", "sha", \
            "format", "stored_size", "size"}], "totals": {"files", "size", "unsized_files", "stored_size"}}.
            """)
    var json = false

    func run() throws {
        try Self.show(
            catalog: try target.catalog.reference, bundle: target.name, version: target.version, flavor: flavor,
            withSHA: sha, json: json, sizes: sizes)
    }

    /// The whole command, shared with its Python-tool spelling `bundle:list`.
    static func show(
        catalog location: CatalogReference, bundle: String, version: String, flavor: String?,
        withSHA: Bool, json: Bool, sizes: Bool = false
    ) throws {
        let catalog = try location.open()
        let listing = try catalog.listVersion(bundle: bundle, resolving: VersionSpec(version, of: bundle, in: catalog), flavor: flavor)
        let manifest = listing.manifest
        if json {
            return try printJSON(
                Report(
                    catalog: manifest.catalog, bundle: manifest.bundle, version: manifest.version, flavor: flavor,
                    files: listing.files, totals: SizeReport(sizes: listing.totals)))
        }
        guard sizes else {
            for file in listing.files { print(withSHA ? "\(file.object.sha) \(file.path)" : file.path) }
            return
        }
        var table = TextTable([.right, .right, .left] + (withSHA ? [.left] : []) + [.left])
        table.add(["size", "stored", "format"] + (withSHA ? ["sha"] : []) + ["path"])
        for file in listing.files {
            let object = file.object
            let sizes = [file.size.map(HumanFormat.bytes) ?? "—", HumanFormat.bytes(object.preferredSize), object.preferredFormat.rawValue]
            table.add(sizes + (withSHA ? [object.sha] : []) + [Names.printable(file.path)])
        }
        for line in table.lines() { print(line) }
        let totals = listing.totals
        print(
            "\(HumanFormat.count(totals.files, "file")), \(totals.content.humanReadable), "
                + "\(HumanFormat.bytes(totals.stored.bytes)) stored")
        if let hint = location.contentSizesHint(unsized: totals.content.unknown) { print(hint) }
    }
}

extension ListBundle {
    /// `list_bundle --json`: the version's files (each as ``VersionDiff/File`` encodes
    /// it), and their totals; `flavor` null when all files are listed.
    struct Report: Encodable {
        let catalog: String
        let bundle: String
        let version: Int
        let flavor: String?
        let files: [VersionDiff.File]
        let totals: SizeReport

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(catalog, forKey: .catalog)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(version, forKey: .version)
            try container.encode(flavor, forKey: .flavor)
            try container.encode(files, forKey: .files)
            try container.encode(totals, forKey: .totals)
        }

        private enum CodingKeys: CodingKey { case catalog, bundle, version, flavor, files, totals }
    }
}
