import ArgumentParser
import Zinc

struct ListCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bundles of a catalog with their versions and distributions.",
        discussion: """
            One line per bundle, sorted: 'BasicAdjectives [1=(_master), 2=(master, test)]' \
            (a version no distribution points at shows as just its number; _NAME is the \
            version NAME pointed at before its last change). With --distro, only the bundles \
            that have that distribution, each with the version it points at. A bundle whose \
            versions were all deleted shows only with --all, as 'NAME (deleted)'.

            With --sizes, each bundle's versions as a table: files, the contents' size (with \
            a '+' when some files are stored gzipped with no recorded content size), the \
            stored size (what a client holding nothing downloads) and the update: what a \
            client on the version before downloads to get it, as 'zinc diff' prices it. \
            --sizes reads every version's manifest.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: "Show only bundles with this distribution, at the version it points at.")
    var distro: String?

    @Flag(help: "Print bundle names only (text output).")
    var noVersions = false

    @Flag(help: "Show bundles with no versions left too, as deleted.")
    var all = false

    @Flag(help: "Show each version's files, size, stored size and update cost from the version before.")
    var sizes = false

    @Flag(
        help: """
            Print one JSON document: {"catalog", "bundles": [{"name", "deleted", "versions": [{"version", \
            "distributions"}]}]}; with --sizes each version also has "files", "size", "unsized_files", \
            "stored_size" and "update" ({"from", "requests", "bytes", "strategy"} or null).
            """)
    var json = false

    func run() throws {
        try Self.show(
            catalog: try catalog.reference, distro: distro, namesOnly: noVersions, json: json, all: all, sizes: sizes)
    }

    /// The whole command, shared with its Python-tool spelling `catalog:list`.
    static func show(
        catalog location: CatalogReference, distro: String?, namesOnly: Bool, json: Bool, all: Bool = false,
        sizes: Bool = false
    ) throws {
        let catalog = try location.open()
        let bundles = try catalog.listBundles(distro: distro, includingDeleted: all)
        // Names alone (a text output option) need no manifest.
        let readsSizes = sizes && (json || !namesOnly)
        let sized = try bundles.map { bundle in
            readsSizes ? try catalog.versionSizes(bundle: bundle.name, versions: bundle.versions.map(\.number)) : nil
        }
        if json {
            return printJSON(
                .object([
                    "catalog": .string(try catalog.index().id),
                    "bundles": .array(zip(bundles, sized).map(jsonBundle)),
                ]))
        }
        for (bundle, versionSizes) in zip(bundles, sized) {
            if namesOnly {
                print(bundle.name)
            } else if bundle.isDeleted {
                print("\(bundle.name) (deleted)")
            } else if let versionSizes {
                print(bundle.name)
                for line in sizeTable(bundle, versionSizes).lines(indent: "  ") { print(line) }
            } else {
                let versions = bundle.versions.map { version in
                    version.distributions.isEmpty
                        ? "\(version.number)" : "\(version.number)=(\(version.distributions.joined(separator: ", ")))"
                }
                print("\(bundle.name) [\(versions.joined(separator: ", "))]")
            }
        }
    }

    private static func sizeTable(_ bundle: BundleListing, _ sizes: [VersionSize]) -> TextTable {
        var table = TextTable([.right, .right, .right, .right, .right, .left])
        table.add("version", "files", "size", "stored", "update", "distributions")
        for (version, size) in zip(bundle.versions, sizes) {
            table.add(
                "\(version.number)", HumanFormat.count(size.files), size.content.humanReadable, size.stored.humanReadable,
                size.update.map { HumanFormat.bytes($0.download.bytes) } ?? "—", version.distributions.joined(separator: ", "))
        }
        return table
    }

    private static func jsonBundle(_ bundle: BundleListing, _ sizes: [VersionSize]?) -> JSONValue {
        .object([
            "name": .string(bundle.name),
            "deleted": .bool(bundle.isDeleted),
            "versions": .array(
                bundle.versions.indices.map { i in
                    var members: [String: JSONValue] = [
                        "version": .int(Int64(bundle.versions[i].number)),
                        "distributions": .array(bundle.versions[i].distributions.map { .string($0) }),
                    ]
                    if let size = sizes?[i] {
                        members["files"] = .int(Int64(size.files))
                        members["size"] = .int(size.content.bytes)
                        members["unsized_files"] = .int(Int64(size.content.unknown))
                        members["stored_size"] = .int(size.stored.bytes)
                        members["update"] =
                            size.update.map { diff in
                                .object([
                                    "from": .int(Int64(diff.from)), "requests": .int(Int64(diff.download.requests)),
                                    "bytes": .int(diff.download.bytes), "strategy": .string(diff.plan.strategy.rawValue),
                                ])
                            } ?? .null
                    }
                    return .object(members)
                }),
        ])
    }
}
