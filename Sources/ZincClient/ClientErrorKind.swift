extension ClientError {
    /// What went wrong, with the values that name it: the targets of this package switch
    /// on it, while apps see ``ClientError/code``, which can gain values without breaking
    /// their `switch`. The factory of the same name on ``ClientError`` documents each case.
    package enum Kind: Equatable, Sendable {
        case repoNotFound(String)
        case repoExists(String)
        case unsupportedURL(String)
        case noDefaultHTTPTransport(url: String)
        case transport(url: String, reason: String, received: Int64)
        case notFound(url: String)
        /// `reason`: what the server said of it, where the source knows its form (S3's
        /// error code and message, the bucket's region).
        case httpStatus(url: String, status: Int, reason: String?)
        case tooLarge(url: String, limit: Int64)
        case truncated(url: String, received: Int64, expected: Int64)
        case rangeIgnored(url: String, ranges: String)
        case badResponse(url: String, reason: String)
        case integrity(url: String, reason: String)
        case allSourcesFailed(catalog: String, failures: [String])
        case notTracked(catalog: String, bundle: String)
        case untrusted(catalog: String, file: String, reason: String)
        case rolledBack(catalog: String, file: String, reason: String)
    }
}
