import ArgumentParser
import Zinc

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a bundle and what the update downloads.",
        discussion: """
            Lists the files added, removed and changed from --from to --to (each a number, \
            'latest' or @DISTRO), the unchanged count, and what a client holding --from \
            downloads to get --to: requests and bytes with the LMFO range, with single \
            objects and with the whole archive, and the one sync chooses (the same cost \
            model). With --summary, that update cost for every older version a \
            distribution or _DISTRO pointer still holds.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("name")], help: "The bundle name (--name is a synonym).")
    var bundle: String

    @Option(help: ArgumentHelp("The version the client holds: a number, 'latest' or @DISTRO.", valueName: "V"))
    var from: String?

    @Option(help: ArgumentHelp("The version it updates to.", valueName: "V"))
    var to = "latest"

    @Option(help: "Compare only the files of this flavor (and download its archive).")
    var flavor: String?

    @Flag(help: "The update cost to --to from each older version a distribution or _DISTRO pointer is at.")
    var summary = false

    @Option(help: ArgumentHelp("The cost of one request in bytes, as for sync.", valueName: "BYTES"))
    var requestCost = CostModel.defaultRequestOverhead

    @Flag(help: "Print one JSON document instead (see 'JSON output' in the README).")
    var json = false

    func validate() throws {
        guard summary != (from != nil) else { throw ValidationError("Give exactly one of --from or --summary.") }
        guard requestCost >= 0 else { throw ValidationError("--request-cost must not be negative.") }
    }

    func run() throws {
        let catalog = try self.catalog.reference.open()
        let model = CostModel(requestOverhead: requestCost)
        if let from {
            let diff = try catalog.diff(
                bundle: bundle, from: VersionSpec(from), to: VersionSpec(to),
                flavor: flavor, model: model)
            if json { return printJSON(diff.json()) }
            printFiles(of: diff)
            printDownload(of: diff)
        } else {
            let costs = try catalog.updateCosts(bundle: bundle, to: VersionSpec(to), flavor: flavor, model: model)
            if json { return printJSON(costs.json()) }
            printSummary(costs)
        }
    }

    private func printFiles(of diff: VersionDiff) {
        let scope = diff.flavor.map { " (flavor \($0))" } ?? ""
        print("\(diff.bundle): version \(diff.from) -> \(diff.to)\(scope)")
        for file in diff.added { print("  + \(Names.printable(file.path))  \(size(file.object))") }
        for file in diff.removed { print("  - \(Names.printable(file.path))  \(size(file.object))") }
        for change in diff.changed {
            print("  ~ \(Names.printable(change.path))  \(size(change.old)) -> \(size(change.new))")
        }
        print(
            "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed, "
                + "\(diff.unchanged) unchanged")
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
            // Without objects left to fetch whole, the plan's strategy fetches nothing.
            let transfer = plan.missing.isEmpty ? FetchPlan.Transfer(requests: 0, bytes: 0) : plan.transfers[plan.strategy]!
            var how = plan.missing.isEmpty ? [] : [Self.strategyNames[plan.strategy]!]
            if chunked > 0 { how.append("chunks of \(HumanFormat.count(chunked, "object"))") }
            print(
                "  from \(row.diff.from) (\(row.distributions.joined(separator: ", "))): "
                    + "\(HumanFormat.count(plan.missing.count + chunked, "object")), "
                    + "\(HumanFormat.bytes(transfer.bytes + row.diff.chunkBytes)) in "
                    + "\(HumanFormat.count(transfer.requests + chunked, "request")) by \(how.joined(separator: " and "))")
        }
    }

    private func size(_ object: StoredObject) -> String {
        object.contentSize.map(HumanFormat.bytes) ?? HumanFormat.bytes(object.preferredSize) + " gzipped"
    }

    private static let strategyNames: [FetchStrategy: String] = [
        .lmfo: "LMFO range", .objects: "objects", .archive: "archive",
    ]
}
