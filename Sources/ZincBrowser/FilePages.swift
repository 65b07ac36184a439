import Zinc
import ZincServer

/// One file of a version: its content, decompressed as it is sent, and a page that
/// previews it with the browser's own viewers and players.
extension CatalogBrowser {
    /// The manifest's entry for `path`, found by lookup (never joined to a folder).
    private func object(_ manifest: Manifest, _ path: String) throws -> StoredObject {
        guard let entry = manifest.files[path] else {
            throw BrowserFailure(status: 404, message: "version \(manifest.version) of '\(manifest.bundle)' has no file '\(path)'")
        }
        return entry.object
    }

    private func stream(_ served: ServedCatalog, _ object: StoredObject) throws -> ObjectStream {
        guard let stream = try ObjectStream(object, in: served.catalog.storage) else {
            throw BrowserFailure(status: 404, message: "the object \(object.sha) is missing from the catalog")
        }
        return stream
    }

    func fileContent(_ served: ServedCatalog, _ manifest: Manifest, path: String) throws -> DynamicResponse {
        let object = try object(manifest, path)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", MediaKind.contentType(path: path)),
            ("X-Content-Type-Options", "nosniff"),
            // A file is the catalog's, not this server's: it runs nothing here (an SVG's script).
            ("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"),
            // Objects never change: their name is their content's hash.
            ("Cache-Control", "public, max-age=31536000, immutable"),
        ]
        if let size = object.contentSize { headers.append(("Content-Length", String(size))) }
        return DynamicResponse(status: 200, headers: headers, body: .stream(try stream(served, object)))
    }

    func viewPage(_ served: ServedCatalog, _ manifest: Manifest, path: String) throws -> HTML {
        let object = try object(manifest, path)
        let (bundle, version) = (manifest.bundle, manifest.version)
        let content = urls.file(served.key, bundle, version, path: path)
        let preview: HTML
        switch MediaKind.of(path: path) {
        case .image: preview = "<img id=\"preview\" src=\"\(content)\" alt=\"\(path)\">"
        case .audio: preview = "<audio id=\"preview\" controls preload=\"metadata\" src=\"\(content)\"></audio>"
        case .video: preview = "<video id=\"preview\" controls preload=\"metadata\" src=\"\(content)\"></video>"
        case .text:
            let limit = 256 << 10
            let (bytes, truncated) = try stream(served, object).prefix(limit)
            let more: HTML = truncated ? "<p class=\"muted\">The first \(HumanFormat.bytes(Int64(limit))) only.</p>" : ""
            preview = "<pre id=\"preview\">\(String(decoding: bytes, as: UTF8.self))</pre>\(more)"
        case .other: preview = "<p class=\"muted\">No preview for this kind of file.</p>"
        }
        return layout(
            title: path,
            crumbs: [
                (served.key, urls.catalog(served.key)), (bundle, urls.bundle(served.key, bundle)),
                ("version \(version)", urls.version(served.key, bundle, version)),
            ],
            body: """
                <h1>\(path)</h1>
                <p class="sub">\(size(object.contentSize(sizes: served.catalog.contentSizes(of: manifest)))) · stored \(object.preferredFormat.rawValue), \(HumanFormat.bytes(object.preferredSize)) · \
                <span class="sha">\(object.sha)</span> · <a href="\(content)">open</a></p>
                <div class="preview">\(preview)</div>
                """)
    }
}
