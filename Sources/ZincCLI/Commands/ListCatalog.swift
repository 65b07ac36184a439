import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct ListCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bundles of a catalog with their versions and distributions.",
        discussion: """
            One line per bundle, sorted: 'BasicAdjectives [1=(_master), 2=(master, test)]' \
            (a version no distribution points at shows as just its number; _NAME is the \
            version NAME pointed at before its last change). With --distro, only the bundles \
            that have that distribution, each with the version it points at. A bundle whose \
            versions were all deleted shows only with --all, as 'NAME (deleted)'. A live \
            rollout shows on a line of its own under its bundle (see 'zinc rollout status').

            With --sizes, each bundle's versions as a table: files, the contents' size (with \
            a '+' when some files are stored gzipped with no recorded content size: in \
            versions imported before sizes files, until 'zinc add_content_sizes'), the \
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
            readsSizes ? try VersionSize.sizes(in: catalog, bundle: bundle.name, versions: bundle.versions.map(\.number)) : nil
        }
        if json {
            return try printJSON(Report(catalog: try catalog.index().id, bundles: zip(bundles, sized).map(Report.Bundle.init)))
        }
        // Which archives the sizes leave out: old clients download a version's whole archive.
        if readsSizes { print(try catalog.archivePolicy().summary) }
        let rollouts = namesOnly ? [] : try RolloutUpdate.live(in: catalog)
        let now = Int64(Date().timeIntervalSince1970)
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
            for rollout in rollouts where rollout.bundle == bundle.name {
                print("  rollout of '\(rollout.distro)': \(rollout.summary(at: now))")
            }
        }
        let unsized = sized.lazy.compactMap { $0 }.joined().reduce(0) { $0 + $1.content.unknown }
        if !namesOnly, let hint = location.contentSizesHint(unsized: unsized) { print(hint) }
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
}

extension ListCatalog {
    /// `list --json`: each bundle's versions and their distributions, and with `--sizes`
    /// each version's sizes and update (null for the oldest: nothing to update from).
    struct Report: Encodable {
        let catalog: String
        let bundles: [Bundle]

        struct Bundle: Encodable {
            let name: String
            let deleted: Bool
            let versions: [Version]

            init(_ bundle: BundleListing, sizes: [VersionSize]?) {
                (name, deleted) = (bundle.name, bundle.isDeleted)
                versions = bundle.versions.indices.map { Version(listed: bundle.versions[$0], sizes: sizes?[$0]) }
            }
        }

        struct Version: Encodable {
            let listed: BundleListing.Version
            let sizes: VersionSize?

            private enum CodingKeys: CodingKey { case version, distributions, update }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(listed.number, forKey: .version)
                try container.encode(listed.distributions, forKey: .distributions)
                guard let sizes else { return }
                try SizeReport(sizes: sizes).encode(to: encoder)
                try container.encode(sizes.update.map(UpdateReport.init), forKey: .update)
            }
        }
    }
}
