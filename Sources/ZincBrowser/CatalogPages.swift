import Zinc

/// The pages above a version: the catalogs served, one catalog's bundles, one bundle's
/// versions with its distributions and what updating costs each of them.
extension CatalogBrowser {
    func catalogsPage() throws -> HTML {
        let rows = try catalogs().map { served -> HTML in
            let index = try served.catalog.index()
            return """
                <tr><td><a href="\(urls.catalog(served.key))">\(served.key)</a></td><td>\(index.id)</td>\
                <td class="num">\(index.bundles.count)</td></tr>
                """
        }
        return layout(
            title: "Catalogs", crumbs: [],
            body: """
                <h1>Catalogs</h1><p class="sub">Served by this <code>zinc serve</code>.</p>
                <table><tr><th>Catalog</th><th>Id</th><th class="num">Bundles</th></tr>\(rows)</table>
                """)
    }

    func catalogPage(_ served: ServedCatalog) throws -> HTML {
        let index = try served.catalog.index()
        let names = index.bundles.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let rows = names.map { name -> HTML in
            let entry = index.bundles[name]!
            let versions = HTML(
                joining: entry.versions.reversed().prefix(8).map { v -> HTML in
                    "<a href=\"\(urls.version(served.key, name, v))\">\(v)</a> \(badges(entry.distributions(pointingAt: v))) "
                })
            let more: HTML = entry.versions.count > 8 ? "<span class=\"muted\">… \(entry.versions.count - 8) more</span>" : ""
            return """
                <tr><td><a href="\(urls.bundle(served.key, name))">\(name)</a></td>\
                <td class="num">\(entry.versions.count)</td><td>\(versions)\(more)</td></tr>
                """
        }
        return layout(
            title: served.key, crumbs: [(served.key, urls.catalog(served.key))],
            body: """
                <h1>\(served.key)</h1><p class="sub">Catalog id <code>\(index.id)</code> · \(names.count) bundles</p>
                <table><tr><th>Bundle</th><th class="num">Versions</th><th>Newest versions and distributions</th></tr>\(rows)</table>\
                \(rolloutSection(served))
                """)
    }

    func bundlePage(_ served: ServedCatalog, _ bundle: String, _ entry: CatalogIndex.BundleEntry) throws -> HTML {
        let newest = entry.versions.reversed()
        let rows = newest.enumerated().map { position, v -> HTML in
            let older = position + 1 < newest.count ? Array(newest)[position + 1] : nil
            let diff: HTML = older.map { "<a href=\"\(urls.diff(served.key, bundle, from: $0, to: v))\">changes from \($0)</a>" } ?? ""
            return """
                <tr><td><a href="\(urls.version(served.key, bundle, v))">version \(v)</a></td>\
                <td>\(badges(entry.distributions(pointingAt: v)))</td><td>\(diff)</td></tr>
                """
        }
        // By default the newest version against the one before it.
        func options(selected: Int?) -> HTML {
            HTML(joining: newest.map { $0 == selected ? "<option selected>\($0)</option>" : "<option>\($0)</option>" })
        }
        let form: HTML =
            entry.versions.count > 1
            ? """
            <form class="diff" method="get" action="\(urls.bundle(served.key, bundle) + "diff")">Compare
            <select name="from" aria-label="from">\(options(selected: entry.versions.dropLast().last))</select> with
            <select name="to" aria-label="to">\(options(selected: entry.latestVersion))</select><button>Diff</button></form>
            """ : ""
        let costs = entry.versions.isEmpty ? [] : try UpdateCosts(served.catalog, bundle: bundle).rows
        return layout(
            title: bundle, crumbs: [(served.key, urls.catalog(served.key)), (bundle, urls.bundle(served.key, bundle))],
            body: """
                <h1>\(bundle)</h1><p class="sub">\(entry.versions.count) versions · newest first</p>\(form)
                <table id="versions"><tr><th>Version</th><th>Distributions</th><th></th></tr>\(rows)</table>\
                \(rolloutSection(served, bundle: bundle))
                <h2>Updating to the newest version</h2>\(costChart(served, bundle, costs))
                """)
    }

    /// Per version still in use, what each download strategy costs, as bars on one scale.
    func costChart(_ served: ServedCatalog, _ bundle: String, _ rows: [UpdateCosts.Row]) -> HTML {
        guard !rows.isEmpty else { return "<p class=\"muted\">No distribution is on an older version.</p>" }
        let largest = max(1, rows.flatMap { $0.diff.plan.transfers.values.map(\.bytes) + [$0.diff.chunkBytes] }.max() ?? 1)
        let body = rows.map { row -> HTML in
            let plan = row.diff.plan
            let chunked = row.diff.chunks.isEmpty ? [] : [chunkBar(row.diff, largest: largest)]
            let bars = HTML(
                joining: chunked
                    + [FetchStrategy.lmfo, .objects, .archive].compactMap { strategy -> HTML? in
                        guard let transfer = plan.transfers[strategy] else { return nil }
                        let width = max(0.3, Double(transfer.bytes) * 100 / Double(largest))
                        let chosen = strategy == plan.strategy
                        return """
                            <tr class="bars"><td class="muted">\(Self.strategyNames[strategy]!)\(chosen ? " ✓" : "")</td>\
                            <td style="width:55%"><div class="bar\(chosen ? " chosen" : "")" style="width:\(width.fixedDecimals(1))%"></div></td>\
                            <td class="num">\(HumanFormat.bytes(transfer.bytes))</td><td class="num">\(transfer.requests) req</td></tr>
                            """
                    })
            return """
                <tr><td colspan="4"><a href="\(urls.diff(served.key, bundle, from: row.diff.from, to: row.diff.to))">\
                from version \(row.diff.from)</a> \(badges(row.distributions)) \
                <span class="muted">\(plan.missing.count + row.diff.chunks.count) objects missing</span></td></tr>\(bars)
                """
        }
        return "<table id=\"costs\">\(body)</table>"
    }

    /// The objects built from chunks the client has: fetched alongside whichever strategy
    /// fetches the others, so always chosen.
    private func chunkBar(_ diff: VersionDiff, largest: Int64) -> HTML {
        let width = max(0.3, Double(diff.chunkBytes) * 100 / Double(largest))
        return """
            <tr class="bars"><td class="muted">chunks of \(diff.chunks.count) ✓</td>\
            <td style="width:55%"><div class="bar chosen" style="width:\(width.fixedDecimals(1))%"></div></td>\
            <td class="num">\(HumanFormat.bytes(diff.chunkBytes))</td><td class="num">\(diff.chunks.count) req</td></tr>
            """
    }

    static let strategyNames: [FetchStrategy: String] = [.lmfo: "LMFO range", .objects: "objects", .archive: "archive"]
}
