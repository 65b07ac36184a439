import NIOHTTP1
import ZincHTTP

/// The response to one request, decided before any byte is written so that the decision is a
/// pure function of the request and the file's attributes.
struct ResponsePlan: Equatable {
    enum Body: Equatable {
        case empty
        /// These bytes of the opened file.
        case file(Range<Int>)
        /// `multipart/byteranges`: each part's delimiter and fields, then its bytes of the
        /// opened file; after the last, the closing delimiter.
        case parts([Part], closing: String)
        case text(String)
    }

    struct Part: Equatable {
        let head: String
        let bytes: Range<Int>
    }

    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: Body

    /// The response to a GET or HEAD of a file (HEAD sends the same head and no body).
    static func forFile(
        size: Int,
        validators: FileValidators,
        catalogPath: [String],
        requestHeaders: HTTPHeaders
    ) -> ResponsePlan {
        let conditions = ConditionalRequest(headers: requestHeaders)
        let rangeHeaders = requestHeaders["Range"]
        let range =
            rangeHeaders.count == 1 && conditions.allowsRange(validators)
            ? ByteRange(header: rangeHeaders[0], fileSize: size) : .entireFile
        if case .unsatisfiable = range, !conditions.isNotModified(validators) {
            var plan = error(.rangeNotSatisfiable)
            plan.headers.add(name: "Content-Range", value: "bytes */\(size)")
            return plan
        }

        var headers = HTTPHeaders()
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "ETag", value: validators.etag)
        headers.add(name: "Last-Modified", value: HTTPDate.format(secondsSinceEpoch: validators.lastModified))
        headers.add(name: "Cache-Control", value: CachePolicy.cacheControl(catalogPath: catalogPath))
        if conditions.isNotModified(validators) {
            return ResponsePlan(status: .notModified, headers: headers, body: .empty)
        }
        let contentType = CachePolicy.contentType(fileName: catalogPath.last ?? "")
        switch range {
        case .multipart(let ranges):
            return multipart(ranges, of: size, contentType: contentType, headers: headers)
        case .partial(let bytes):
            headers.add(name: "Content-Type", value: contentType)
            headers.add(name: "Content-Range", value: "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)")
            headers.add(name: "Content-Length", value: String(bytes.count))
            return ResponsePlan(status: .partialContent, headers: headers, body: .file(bytes))
        case .entireFile, .unsatisfiable:
            headers.add(name: "Content-Type", value: contentType)
            headers.add(name: "Content-Length", value: String(size))
            return ResponsePlan(status: .ok, headers: headers, body: .file(0..<size))
        }
    }

    /// The answer to a set of ranges (RFC 9110 §14.6), its length known before the first byte.
    private static func multipart(
        _ ranges: [Range<Int>], of size: Int, contentType: String, headers: HTTPHeaders
    ) -> ResponsePlan {
        // Random, so that no file's bytes can contain the delimiter by design.
        let boundary = "zinc-" + String(UInt64.random(in: .min ... .max), radix: 16)
        let parts = ranges.enumerated().map { i, bytes in
            Part(
                head: (i == 0 ? "" : "\r\n") + "--\(boundary)\r\nContent-Type: \(contentType)\r\n"
                    + "Content-Range: bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)\r\n\r\n",
                bytes: bytes)
        }
        let closing = "\r\n--\(boundary)--\r\n"
        let length = parts.reduce(closing.utf8.count) { $0 + $1.head.utf8.count + $1.bytes.count }
        var headers = headers
        headers.add(name: "Content-Type", value: "multipart/byteranges; boundary=\(boundary)")
        headers.add(name: "Content-Length", value: String(length))
        return ResponsePlan(status: .partialContent, headers: headers, body: .parts(parts, closing: closing))
    }

    /// A short plain-text error; deliberately without any detail about the file system.
    static func error(_ status: HTTPResponseStatus) -> ResponsePlan {
        let text = "\(status.code) \(status.reasonPhrase)\n"
        let headers = HTTPHeaders([
            ("Accept-Ranges", "bytes"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", String(text.utf8.count)),
        ])
        return ResponsePlan(status: status, headers: headers, body: .text(text))
    }

    static let methodNotAllowed: ResponsePlan = {
        var plan = error(.methodNotAllowed)
        plan.headers.add(name: "Allow", value: "GET, HEAD")
        return plan
    }()
}
