import Zinc

/// One version's files as a folder tree: sizes, stored format and sha, previews of
/// images as lazy thumbnails, and links to each file's content and the archive.
extension CatalogBrowser {
    func versionPage(_ served: ServedCatalog, _ manifest: Manifest, entry: CatalogIndex.BundleEntry,
                     flavor: String?) throws -> HTML {
        let (bundle, version) = (manifest.bundle, manifest.version)
        let paths = try manifest.paths(ofExistingFlavor: flavor)
        let files = paths.map { (path: $0, object: manifest.files[$0]!.object) }
        let contentBytes = files.reduce(Int64(0)) { $0 + ($1.object.formats[.raw] ?? $1.object.preferredSize) }
        let storedBytes = files.reduce(Int64(0)) { $0 + $1.object.preferredSize }
        let archivePath = Catalog.archivePath(bundle: bundle, version: version, flavor: flavor)
        let archive: HTML = try served.catalog.storage.size(of: archivePath).map { size in
            "<div class=\"card\"><b>\(HumanFormat.bytes(size))</b><span><a href=\"\(served.filesBase + archivePath)\">archive</a></span></div>"
        } ?? ""
        let flavors = manifest.flavors.isEmpty ? "" : HTML(joining: ([nil] + manifest.flavors).map { name -> HTML in
            let label = name ?? "all files"
            return name == flavor ? "<b>\(label)</b> " : "<a href=\"\(urls.version(served.key, bundle, version, flavor: name))\">\(label)</a> "
        })
        let flavorLine: HTML = manifest.flavors.isEmpty ? "" : "<p>Flavor: \(flavors)</p>"
        return layout(title: "\(bundle) \(version)", crumbs: [
            (served.key, urls.catalog(served.key)), (bundle, urls.bundle(served.key, bundle)),
            ("version \(version)", urls.version(served.key, bundle, version)),
        ], body: """
            <h1>\(bundle) <span class="muted">version \(version)</span></h1>
            <p class="sub">\(badges(entry.distributions(pointingAt: version)))</p>\(flavorLine)
            <div class="cards"><div class="card"><b id="file-count">\(HumanFormat.count(files.count))</b><span>files</span></div>\
            <div class="card"><b>\(HumanFormat.bytes(contentBytes))</b><span>total size</span></div>\
            <div class="card"><b>\(HumanFormat.bytes(storedBytes))</b><span>stored</span></div>\(archive)</div>
            <table id="files"><tr><th>Name</th><th class="num">Size</th><th>Stored</th><th>SHA-1</th><th></th></tr>\
            \(tree(served, manifest, files))</table>
            """)
    }

    /// Rows of the folder tree: a row per folder (with its totals) before its files,
    /// indented by depth. Paths come sorted, so a folder's files are contiguous.
    private func tree(_ served: ServedCatalog, _ manifest: Manifest, _ files: [(path: String, object: StoredObject)]) -> HTML {
        var totals = [Substring: (count: Int, bytes: Int64)]()
        for file in files {
            var end = file.path.endIndex
            while let slash = file.path[..<end].lastIndex(of: "/") {
                let folder = file.path[..<slash]
                totals[folder, default: (0, 0)].count += 1
                totals[folder, default: (0, 0)].bytes += file.object.formats[.raw] ?? file.object.preferredSize
                end = slash
            }
        }
        var rows = [HTML]()
        rows.reserveCapacity(files.count + totals.count)
        var open = [Substring]()  // the folders of the previous file
        for file in files {
            let parts = file.path.split(separator: "/")
            let folders = parts.dropLast()
            var depth = 0
            while depth < min(open.count, folders.count), open[depth] == folders[folders.startIndex + depth] { depth += 1 }
            for level in depth..<folders.count {
                let folder = file.path[..<folders[folders.startIndex + level].endIndex]
                let total = totals[folder]!
                rows.append("""
                    <tr class="dir"><td style="padding-left:\(10 + 18 * level)px">▸ \(String(parts[level]))/</td>\
                    <td class="num">\(HumanFormat.bytes(total.bytes))</td><td colspan="3" class="muted">\(HumanFormat.count(total.count)) files</td></tr>
                    """)
            }
            open = Array(folders)
            rows.append(fileRow(served, manifest, file.path, name: String(parts.last!), object: file.object, depth: folders.count))
        }
        return HTML(joining: rows)
    }

    private func fileRow(_ served: ServedCatalog, _ manifest: Manifest, _ path: String, name: String,
                         object: StoredObject, depth: Int) -> HTML {
        let content = urls.file(served.key, manifest.bundle, manifest.version, path: path)
        let thumb: HTML = MediaKind.of(path: path) == .image
            ? "<img class=\"thumb\" loading=\"lazy\" src=\"\(content)\" alt=\"\">" : ""
        let size = object.formats[.raw].map(HumanFormat.bytes) ?? "—"
        let sha = object.sha
        return """
            <tr><td style="padding-left:\(10 + 18 * depth)px">\(thumb)<a href="\(urls.view(served.key, manifest.bundle, manifest.version, path: path))">\(name)</a></td>\
            <td class="num">\(size)</td><td>\(object.preferredFormat.rawValue) <span class="muted">\(HumanFormat.bytes(object.preferredSize))</span></td>\
            <td><span class="sha" title="\(sha)">\(String(sha.prefix(10)))</span></td><td><a href="\(content)">open</a></td></tr>
            """
    }
}
