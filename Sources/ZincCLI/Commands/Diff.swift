import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a bundle and what the update downloads.",
        discussion: """
            Lists the files added, changed, renamed (the same content at a new path, which \
            costs nothing) and removed from --from to --to (each a number, 'latest' or \
            @DISTRO), the unchanged count, and what a client holding --from downloads to get \
            --to: requests and bytes with the LMFO range, with single objects and with the \
            whole archive, and the one sync chooses (the same cost model). Each file shows \
            its content's size ('—' for a file stored gzipped whose content size the catalog \
            does not record) and what its object adds to the download. Without --from, the \
            version @master points at (unless it is --to), else the version before --to. \
            When --from names a distribution with a live rollout, says so: its installs \
            follow either the rollout's control or its candidate. With --summary, that update cost for every older version a distribution or \
            _DISTRO pointer still holds.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("name")], help: "The bundle name (--name is a synonym).")
    var bundle: String

    @Option(
        help: ArgumentHelp(
            "The version the client holds: a number, 'latest' or @DISTRO (default: @master, else the version before --to).",
            valueName: "V"))
    var from: String?

    @Option(help: ArgumentHelp("The version it updates to.", valueName: "V"))
    var to = "latest"

    @Option(help: "Compare only the files of this flavor (and download its archive).")
    var flavor: String?

    @Flag(help: "The update cost to --to from each older version a distribution or _DISTRO pointer is at.")
    var summary = false

    @Option(help: ArgumentHelp("The cost of one request in bytes, as for sync.", valueName: "BYTES"))
    var requestCost = CostModel.defaultRequestOverhead

    @Flag(help: "Print one JSON document instead (see docs/JSON.md).")
    var json = false

    func validate() throws {
        guard !summary || from == nil else { throw ValidationError("Give --from or --summary, not both.") }
        guard requestCost >= 0 else { throw ValidationError("--request-cost must not be negative.") }
    }

    func run() throws {
        let catalog = try self.catalog.reference.open()
        let model = CostModel(requestOverhead: requestCost)
        if summary {
            let costs = try UpdateCosts(catalog, bundle: bundle, to: VersionSpec(to, of: bundle, in: catalog), flavor: flavor, model: model)
            if json { return try printJSON(costs) }
            printSummary(costs)
        } else {
            let diff = try VersionDiff(
                catalog, bundle: bundle, from: from.map { try VersionSpec($0, of: bundle, in: catalog) },
                to: VersionSpec(to, of: bundle, in: catalog), flavor: flavor, model: model)
            if json { return try printJSON(diff) }
            printFiles(of: diff)
            printDownload(of: diff)
        }
    }

    private func printFiles(of diff: VersionDiff) {
        let scope = diff.flavor.map { " (flavor \($0))" } ?? ""
        let chosen =
            switch diff.defaultBase {
            case .distro(let distro)?: " (from @\(distro), as --from was not given)"
            case .previousVersion?: " (from the version before, as --from was not given)"
            case nil: ""
            }
        print("\(diff.bundle): version \(diff.from) -> \(diff.to)\(scope)\(chosen)")
        if let rollout = diff.fromRollout {
            print("'\(rollout.distro)' is in a rollout: \(rollout.summary(at: Int64(Date().timeIntervalSince1970)))")
        }
        var table = TextTable([.left, .right, .right, .left])
        table.add("", "size", "download", "path")
        for file in diff.added {
            table.add("added", size(file.size), HumanFormat.bytes(diff.downloadBytes(of: file.object)), Names.printable(file.path))
        }
        for change in diff.changed {
            let sizes = change.oldSize == nil && change.newSize == nil ? "—" : "\(size(change.oldSize)) -> \(size(change.newSize))"
            table.add("changed", sizes, HumanFormat.bytes(diff.downloadBytes(of: change.new)), Names.printable(change.path))
        }
        for rename in diff.renamed {
            table.add(
                "renamed", size(rename.size), HumanFormat.bytes(0), "\(Names.printable(rename.from)) -> \(Names.printable(rename.to))")
        }
        for file in diff.removed { table.add("removed", size(file.size), HumanFormat.bytes(0), Names.printable(file.path)) }
        if table.rows.count > 1 {
            for line in table.lines(indent: "  ") { print(line) }
        }
        print(
            "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed, "
                + "\(diff.renamed.count) renamed, \(diff.unchanged) unchanged")
    }

    private func printDownload(of diff: VersionDiff) {
        let plan = diff.plan
        print("A client on version \(diff.from) is missing \(HumanFormat.count(plan.missing.count + diff.chunks.count, "object")):")
        if !diff.chunks.isEmpty {
            let reused = diff.chunks.reduce(0) { $0 + $1.reusedBytes }
            print(
                "  \(HumanFormat.count(diff.chunks.count, "object")) built from chunks it has (\(HumanFormat.bytes(reused)) reused): "
                    + "\(HumanFormat.count(diff.chunks.count, "request")), \(HumanFormat.bytes(diff.chunkBytes))")
            guard !plan.missing.isEmpty else { return }
            print("  the other \(HumanFormat.count(plan.missing.count, "object")):")
        }
        for strategy in [FetchStrategy.lmfo, .objects, .archive] {
            guard let transfer = plan.transfers[strategy] else { continue }
            let requests = HumanFormat.count(transfer.requests, "request")
            let chosen = strategy == plan.strategy ? "  (sync's choice)" : ""
            let name = Self.strategyNames[strategy]!
            print("  \(name + String(repeating: " ", count: 12 - name.count))\(requests), \(HumanFormat.bytes(transfer.bytes))\(chosen)")
        }
    }

    private func printSummary(_ costs: UpdateCosts) {
        let scope = costs.flavor.map { " (flavor \($0))" } ?? ""
        guard !costs.rows.isEmpty else {
            return print("\(costs.bundle): no distribution is on a version older than \(costs.to)\(scope)")
        }
        print("\(costs.bundle): updating to version \(costs.to)\(scope)")
        for row in costs.rows {
            let plan = row.diff.plan
            let chunked = row.diff.chunks.count
            let download = row.diff.download
            var how = plan.missing.isEmpty ? [] : [Self.strategyNames[plan.strategy]!]
            if chunked > 0 { how.append("chunks of \(HumanFormat.count(chunked, "object"))") }
            print(
                "  from \(row.diff.from) (\(row.distributions.joined(separator: ", "))): "
                    + "\(HumanFormat.count(plan.missing.count + chunked, "object")), "
                    + "\(HumanFormat.bytes(download.bytes)) in "
                    + "\(HumanFormat.count(download.requests, "request")) by \(how.joined(separator: " and "))")
        }
    }

    /// A content's size; '—' where the catalog does not record it.
    private func size(_ bytes: Int64?) -> String { bytes.map(HumanFormat.bytes) ?? "—" }

    private static let strategyNames: [FetchStrategy: String] = [
        .lmfo: "LMFO range", .objects: "objects", .archive: "archive",
    ]
}
