import NIOHTTP1

/// The validators of one file as it was when it was opened.
struct FileValidators: Equatable {
    /// Strong and quoted. Built from inode, size and modification time in nanoseconds: the index
    /// files are replaced by atomic rename, which always yields a new inode, and an in-place
    /// rewrite changes the mtime, so the tag changes whenever the content can have changed.
    let etag: String
    /// Seconds since the epoch, the precision of `Last-Modified`.
    let lastModified: Int

    init(inode: UInt64, size: Int, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        let nanoseconds = Int64(modifiedSeconds) &* 1_000_000_000 &+ Int64(modifiedNanoseconds)
        etag = "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(nanoseconds, radix: 16))\""
        lastModified = modifiedSeconds
    }
}

/// The conditional headers of a GET or HEAD request (RFC 9110 §13), evaluated in the RFC's order:
/// `If-None-Match` wins over `If-Modified-Since`, and `If-Range` decides whether `Range` applies.
package struct ConditionalRequest {
    private let ifNoneMatch: String?
    private let ifModifiedSince: String?
    private let ifRange: String?

    init(headers: HTTPHeaders) {
        let ifNoneMatch = headers["If-None-Match"]
        self.ifNoneMatch = ifNoneMatch.isEmpty ? nil : ifNoneMatch.joined(separator: ",")
        ifModifiedSince = headers.first(name: "If-Modified-Since")
        ifRange = headers.first(name: "If-Range")
    }

    /// True when the client's cached copy is current, so the answer is 304.
    func isNotModified(_ validators: FileValidators) -> Bool {
        if let ifNoneMatch {
            // Weak comparison: a weak tag from a cache still means "I have these bytes".
            let field = ifNoneMatch.trimmingOptionalWhitespace()
            if field == "*" { return true }
            return Self.entityTags(in: field).contains { $0.opaqueTag == validators.etag }
        }
        if let ifModifiedSince, let since = HTTPDate.parse(String(ifModifiedSince.trimmingOptionalWhitespace())) {
            return validators.lastModified <= since
        }
        return false
    }

    /// False when `If-Range` names another version of the file: the client would splice
    /// bytes of two versions together, so it gets the whole file instead.
    func allowsRange(_ validators: FileValidators) -> Bool {
        guard let ifRange else { return true }
        let value = ifRange.trimmingOptionalWhitespace()
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            // Strong comparison: a weak tag never matches.
            let tags = Self.entityTags(in: value)
            return tags.count == 1 && !tags[0].isWeak && tags[0].opaqueTag == validators.etag
        }
        return HTTPDate.parse(String(value)) == validators.lastModified
    }

    package struct EntityTag: Equatable {
        var isWeak: Bool
        /// Including the double quotes, as our own `ETag` is written.
        var opaqueTag: Substring
    }

    /// Parses `#entity-tag` (RFC 9110 §8.8.3). Parsing stops at the first malformed element:
    /// what came before it is still usable and nothing after it can be trusted.
    package static func entityTags(in field: Substring) -> [EntityTag] {
        var tags: [EntityTag] = []
        var rest = field[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { return tags }
            var isWeak = false
            if rest.hasPrefix("W/") {
                isWeak = true
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return tags }
            tags.append(EntityTag(isWeak: isWeak, opaqueTag: rest[rest.startIndex...close]))
            rest = rest[rest.index(after: close)...]
            let separator = rest.drop { $0 == " " || $0 == "\t" }
            guard separator.isEmpty || separator.first == "," else { return tags }
            rest = separator
        }
    }
}
