import Zinc

/// `zinc diff` as a page: counts, the files added, removed, renamed and changed (changed
/// images side by side), each with its content's size and what it adds to the download,
/// and what the update downloads by each strategy.
extension CatalogBrowser {
    func diffPage(_ served: ServedCatalog, _ bundle: String, from: Int, to: Int, flavor: String?) throws -> HTML {
        let diff = try VersionDiff(served.catalog, bundle: bundle, from: .number(from), to: .number(to), flavor: flavor)
        func fileRows(_ files: [VersionDiff.File], version: Int, mark: String, css: String) -> [HTML] {
            files.map { file in
                """
                <tr><td><span class="\(css)">\(mark)</span> \
                <a href="\(urls.view(served.key, bundle, version, path: file.path))">\(file.path)</a></td>\
                <td class="num">\(size(file.size))</td><td class="num">\(download(diff, file.object, version: version))</td>\
                <td><span class="sha">\(String(file.object.sha.prefix(10)))</span></td></tr>
                """
            }
        }
        let renamed = diff.renamed.map { rename -> HTML in
            """
            <tr><td><span class="muted">→</span> \(rename.from) → \
            <a href="\(urls.view(served.key, bundle, to, path: rename.to))">\(rename.to)</a></td>\
            <td class="num">\(size(rename.size))</td><td class="num">\(HumanFormat.bytes(0))</td>\
            <td><span class="sha">\(String(rename.object.sha.prefix(10)))</span></td></tr>
            """
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
                <td class="num">\(size(change.oldSize)) → \(size(change.newSize))</td>\
                <td class="num">\(download(diff, change.new, version: to))</td>\
                <td><span class="sha">\(String(change.old.sha.prefix(10))) → \(String(change.new.sha.prefix(10)))</span></td></tr>
                """
        }
        let rows =
            fileRows(diff.added, version: to, mark: "+", css: "added") + fileRows(diff.removed, version: from, mark: "−", css: "removed")
            + renamed + changed
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"muted\">The two versions hold the same files.</p>"
            : "<table id=\"changes\"><tr><th>File</th><th class=\"num\">Size</th><th class=\"num\">Download</th><th>SHA-1</th></tr>\(rows)</table>"
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
                \(card("changed", diff.changed.count, "changed"))\(card("renamed", diff.renamed.count, "muted"))\
                \(card("unchanged", diff.unchanged, "muted"))</div>
                \(table)
                <h2>Download for a client on version \(from)</h2>\(costChart(served, bundle, [row]))
                """)
    }

    private func card(_ name: String, _ count: Int, _ css: String) -> HTML {
        "<div class=\"card\"><b id=\"\(name)-count\" class=\"\(css)\">\(HumanFormat.count(count))</b><span>\(name)</span></div>"
    }

    /// A content's size; '—' where the catalog does not record it.
    func size(_ bytes: Int64?) -> String { bytes.map(HumanFormat.bytes) ?? "—" }

    /// What an object of the diff's `to` adds to the download; nothing for a removed file
    /// (one of `from`).
    private func download(_ diff: VersionDiff, _ object: StoredObject, version: Int) -> String {
        HumanFormat.bytes(version == diff.to ? diff.downloadBytes(of: object) : 0)
    }
}
