/// `config.json`: settings every writer of the catalog must share.
public struct CatalogConfig: Equatable, Sendable {
    /// Store an object gzipped only when `gz_size / raw_size <= gzipThreshold`.
    public var gzipThreshold: Double

    public static let path = "config.json"
    public static let standard = CatalogConfig(gzipThreshold: 0.85)

    public init(gzipThreshold: Double) {
        self.gzipThreshold = gzipThreshold
    }

    /// Reads `config.json`; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws -> CatalogConfig {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            throw ZincError.corruptFile(path: path, reason: "not JSON (\(error))")
        }
        guard let top = json.objectValue else { throw ZincError.corruptFile(path: path, reason: "not a JSON object") }
        guard let value = top["gzip_threshold"] else { return .standard }
        guard let threshold = value.doubleValue, threshold > 0, threshold <= 1 else {
            throw ZincError.corruptFile(path: path, reason: "'gzip_threshold' must be a number in (0, 1]")
        }
        return CatalogConfig(gzipThreshold: threshold)
    }

    /// The bytes of `config.json`.
    public func encoded() -> [UInt8] {
        JSONValue.object(["gzip_threshold": .double(gzipThreshold)]).encoded()
    }
}
