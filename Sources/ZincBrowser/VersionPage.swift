import Zinc

/// One version's files as a folder tree: sizes, stored format and sha, previews of
/// images as lazy thumbnails, and links to each file's content and the archive.
extension CatalogBrowser {
    func versionPage(
        _ served: ServedCatalog, _ manifest: Manifest, entry: CatalogIndex.BundleEntry,
        flavor: String?
    ) throws -> HTML {
        let (bundle, version) = (manifest.bundle, manifest.version)
        let paths = try manifest.paths(ofExistingFlavor: flavor)
        // A gzipped object's content size is in the version's sizes file; a version
        // imported before those has none until `add_content_sizes`: the total leaves such
        // files out, and says so.
        let sizes = served.catalog.contentSizes(of: manifest)
        let files = paths.map { path in
            let object = manifest.files[path]!.object
            return (path: path, object: object, size: object.contentSize(sizes: sizes))
        }
        let contentBytes = files.reduce(Int64(0)) { $0 + ($1.size ?? 0) }
        let unsized = files.count { $0.size == nil }
        let sizeLabel = unsized == 0 ? "total size" : "total size, without \(filesCount(unsized)) stored gzipped before sizes were recorded"
        let storedBytes = files.reduce(Int64(0)) { $0 + $1.object.preferredSize }
        let archivePath = Catalog.archivePath(bundle: bundle, version: version, flavor: flavor)
        let archive: HTML =
            try served.catalog.storage.size(of: archivePath).map { size in
                "<div class=\"card\"><b>\(HumanFormat.bytes(size))</b><span><a href=\"\(served.filesBase + archivePath)\">archive</a></span></div>"
            } ?? ""
        let flavors =
            manifest.flavors.isEmpty
            ? ""
            : HTML(
                joining: ([nil] + manifest.flavors).map { name -> HTML in
                    let label = name ?? "all files"
                    return name == flavor
                        ? "<b>\(label)</b> " : "<a href=\"\(urls.version(served.key, bundle, version, flavor: name))\">\(label)</a> "
                })
        let flavorLine: HTML = manifest.flavors.isEmpty ? "" : "<p>Flavor: \(flavors)</p>"
        return layout(
            title: "\(bundle) \(version)",
            crumbs: [
                (served.key, urls.catalog(served.key)), (bundle, urls.bundle(served.key, bundle)),
                ("version \(version)", urls.version(served.key, bundle, version)),
            ], base: urls.version(served.key, bundle, version),
            body: """
                <h1>\(bundle) <span class="muted">version \(version)</span></h1>
                <p class="sub">\(badges(entry.distributions(pointingAt: version)))</p>\(flavorLine)
                <div class="cards"><div class="card"><b id="file-count">\(HumanFormat.count(files.count))</b><span>\(files.count == 1 ? "file" : "files")</span></div>\
                <div class="card"><b>\(HumanFormat.bytes(contentBytes))</b><span>\(sizeLabel)</span></div>\
                <div class="card"><b>\(HumanFormat.bytes(storedBytes))</b><span>stored</span></div>\(archive)</div>
                <table id="files"><tr><th>Name</th><th class="num">Size</th><th>Stored</th><th>SHA-1</th><th></th></tr>\
                \(tree(files))</table>
                """)
    }

    /// Rows of the folder tree: a row per folder (with its totals) before its files,
    /// indented by depth. Paths come sorted, so a folder's files are contiguous; most
    /// files share their folder with the previous one, and only a change of folder costs
    /// splitting paths.
    private func tree(_ files: [(path: String, object: StoredObject, size: Int64?)]) -> HTML {
        let folders = files.map { file in
            file.path[..<(file.path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? file.path.startIndex)]
        }
        var totals = [Substring: (count: Int, bytes: Int64)]()
        for (file, folder) in zip(files, folders) {
            totals[folder, default: (0, 0)].count += 1
            totals[folder, default: (0, 0)].bytes += file.size ?? 0
        }
        for (name, total) in totals where !name.isEmpty {  // into every ancestor
            var ancestor = name
            while let slash = ancestor.lastIndex(of: "/") {
                ancestor = ancestor[..<slash]
                totals[ancestor, default: (0, 0)].count += total.count
                totals[ancestor, default: (0, 0)].bytes += total.bytes
            }
        }
        var html = HTML()
        html.reserveCapacity(files.count * 360)
        var current: Substring = ""
        var depth = 0
        for (file, parent) in zip(files, folders) {
            if parent != current {
                let old = current.split(separator: "/"), new = parent.split(separator: "/")
                var shared = 0
                while shared < min(old.count, new.count), old[shared] == new[shared] { shared += 1 }
                for level in shared..<new.count {
                    let total = totals[parent[..<new[level].endIndex]]!
                    html.append(
                        """
                        <tr class="dir"><td style="padding-left:\(10 + 18 * level)px">▸ \(String(new[level]))/</td>\
                        <td class="num">\(HumanFormat.bytes(total.bytes))</td><td colspan="3" class="muted">\(filesCount(total.count))</td></tr>
                        """)
                }
                current = parent
                depth = new.count
            }
            let name = parent.isEmpty ? file.path : String(file.path[file.path.index(after: parent.endIndex)...])
            html.append(fileRow(file.path, name: name, object: file.object, size: file.size, depth: depth))
        }
        return html
    }

    private func filesCount(_ count: Int) -> String {
        "\(HumanFormat.count(count)) \(count == 1 ? "file" : "files")"
    }

    /// Links are relative to the version's page (`file?path=…`, `view?path=…`) with the
    /// path encoded once per row: a page of 10,000 files stays small and quick to make.
    private func fileRow(_ path: String, name: String, object: StoredObject, size: Int64?, depth: Int) -> HTML {
        let query = "?path=" + BrowserURL.encoded(path)
        let thumb: HTML =
            MediaKind.of(path: path) == .image
            ? "<img class=\"thumb\" loading=\"lazy\" src=\"file\(query)\" alt=\"\">" : ""
        let size = size.map(HumanFormat.bytes) ?? "—"
        let stored: HTML =
            object.preferredFormat == .raw
            ? "raw" : "gz <span class=\"muted\">\(HumanFormat.bytes(object.preferredSize))</span>"
        let sha = object.sha
        return """
            <tr><td style="padding-left:\(10 + 18 * depth)px">\(thumb)<a href="view\(query)">\(name)</a></td>\
            <td class="num">\(size)</td><td>\(stored)</td>\
            <td class="sha" title="\(sha)">\(String(sha.prefix(10)))</td><td><a href="file\(query)">open</a></td></tr>
            """
    }
}
