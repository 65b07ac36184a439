/// What a file is to a browser, from its extension: the Content-Type it is sent with and
/// how its page previews it.
enum MediaKind: Equatable, Sendable {
    case image, audio, video, text, other

    /// The Content-Type for a file's content. Markup (HTML, SVG aside, which the browser
    /// shows as an image) goes out as plain text: it comes from a catalog and must not
    /// run as a page of this server.
    static func contentType(path: String) -> String {
        types[fileExtension(path)] ?? "application/octet-stream"
    }

    static func of(path: String) -> MediaKind {
        let type = contentType(path: path)
        if type.hasPrefix("image/") { return .image }
        if type.hasPrefix("audio/") { return .audio }
        if type.hasPrefix("video/") { return .video }
        if type.hasPrefix("text/") || type.hasPrefix("application/json") { return .text }
        return .other
    }

    private static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    private static let plainText = "text/plain; charset=utf-8"
    private static let types: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/x-icon", "avif": "image/avif",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "caf": "audio/x-caf",
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "ogv": "video/ogg",
        "json": "application/json; charset=utf-8", "txt": plainText, "js": plainText, "css": plainText, "md": plainText, "csv": plainText,
        "strings": plainText, "yaml": plainText, "yml": plainText, "xml": plainText, "plist": plainText, "html": plainText, "htm": plainText,
        "log": plainText,
    ]
}
