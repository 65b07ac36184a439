import Zinc

/// `zinc diff` as a page: counts, the files added, removed and changed (changed images
/// side by side), and what the update downloads by each strategy.
extension CatalogBrowser {
    func diffPage(_ served: ServedCatalog, _ bundle: String, from: Int, to: Int, flavor: String?) throws -> HTML {
        let diff = try served.catalog.diff(bundle: bundle, from: .number(from), to: .number(to), flavor: flavor)
        func fileRows(_ files: [VersionDiff.File], version: Int, mark: String, css: String) -> [HTML] {
            files.map { file in
                """
                <tr><td><span class="\(css)">\(mark)</span> \
                <a href="\(urls.view(served.key, bundle, version, path: file.path))">\(file.path)</a></td>\
                <td class="num">\(size(file.object))</td><td><span class="sha">\(String(file.object.sha.prefix(10)))</span></td></tr>
                """
            }
        }
        let changed = diff.changed.map { change -> HTML in
            let images: HTML =
                MediaKind.of(path: change.path) == .image
                ? """
                <div class="pair"><figure><img loading="lazy" src="\(urls.file(served.key, bundle, from, path: change.path))" alt="">\
                <figcaption class="muted">version \(from)</figcaption></figure><figure><img loading="lazy" \
                src="\(urls.file(served.key, bundle, to, path: change.path))" alt=""><figcaption class="muted">version \(to)</figcaption></figure></div>
                """ : ""
            return """
                <tr><td><span class="changed">~</span> <a href="\(urls.view(served.key, bundle, to, path: change.path))">\(change.path)</a>\(images)</td>\
                <td class="num">\(size(change.old)) → \(size(change.new))</td>\
                <td><span class="sha">\(String(change.old.sha.prefix(10))) → \(String(change.new.sha.prefix(10)))</span></td></tr>
                """
        }
        let rows =
            fileRows(diff.added, version: to, mark: "+", css: "added") + fileRows(diff.removed, version: from, mark: "−", css: "removed")
            + changed
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"muted\">The two versions hold the same files.</p>"
            : "<table id=\"changes\"><tr><th>File</th><th class=\"num\">Size</th><th>SHA-1</th></tr>\(rows)</table>"
        let row = UpdateCosts.Row(distributions: [], diff: diff)
        return layout(
            title: "\(bundle) \(from) → \(to)",
            crumbs: [
                (served.key, urls.catalog(served.key)), (bundle, urls.bundle(served.key, bundle)),
                ("diff", urls.diff(served.key, bundle, from: from, to: to)),
            ],
            body: """
                <h1>\(bundle) <span class="muted">version</span> <a href="\(urls.version(served.key, bundle, from))">\(from)</a> → \
                <a href="\(urls.version(served.key, bundle, to))">\(to)</a></h1>
                <p class="sub">\(flavor.map { "Flavor \($0)" } ?? "All files")</p>
                <div class="cards">\(card("added", diff.added.count, "added"))\(card("removed", diff.removed.count, "removed"))\
                \(card("changed", diff.changed.count, "changed"))\(card("unchanged", diff.unchanged, "muted"))</div>
                \(table)
                <h2>Download for a client on version \(from)</h2>\(costChart(served, bundle, [row]))
                """)
    }

    private func card(_ name: String, _ count: Int, _ css: String) -> HTML {
        "<div class=\"card\"><b id=\"\(name)-count\" class=\"\(css)\">\(HumanFormat.count(count))</b><span>\(name)</span></div>"
    }

    func size(_ object: StoredObject) -> String {
        object.contentSize.map(HumanFormat.bytes) ?? HumanFormat.bytes(object.preferredSize) + " gz"
    }
}
