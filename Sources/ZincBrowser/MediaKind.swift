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

    /// The extension of the path's last name, lowercased; "" for none (or a dotfile).
    private static func fileExtension(_ path: String) -> String {
        let utf8 = path.utf8
        guard let dot = utf8.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }),
            utf8[dot] == UInt8(ascii: "."), dot != utf8.startIndex,
            utf8[utf8.index(before: dot)] != UInt8(ascii: "/")
        else { return "" }
        let suffix = path[utf8.index(after: dot)...]
        return suffix.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? suffix.lowercased() : String(suffix)
    }

    private static let plainText = "text/plain; charset=utf-8"
    private static let types: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/x-icon", "avif": "image/avif",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "caf": "audio/x-caf",
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "ogv": "video/ogg",
        "json": "application/json; charset=utf-8", "txt": plainText, "js": plainText, "css": plainText, "md": plainText, "csv": plainText,
        "strings": plainText, "yaml": plainText, "yml": plainText, "xml": plainText, "plist": plainText, "html": plainText,
        "htm": plainText,
        "log": plainText,
    ]
}
