import Zinc

/// The addresses of the browser's pages and of the files it links to, each path
/// segment and query value percent-encoded, so that any name a catalog holds makes a
/// link that leads back to it.
struct BrowserURL: Sendable {
    /// `/~zinc`: where the routes are mounted.
    let base: String

    func catalogs() -> String { base + "/" }

    func catalog(_ key: String) -> String { base + "/" + Self.encoded(key) + "/" }

    func bundle(_ key: String, _ bundle: String) -> String { catalog(key) + Self.encoded(bundle) + "/" }

    func version(_ key: String, _ bundle: String, _ version: Int, flavor: String? = nil) -> String {
        self.bundle(key, bundle) + String(version) + "/" + Self.query(["flavor": flavor])
    }

    /// The content of one file, decompressed.
    func file(_ key: String, _ bundle: String, _ version: Int, path: String) -> String {
        self.bundle(key, bundle) + String(version) + "/file" + Self.query(["path": path])
    }

    /// A page previewing one file.
    func view(_ key: String, _ bundle: String, _ version: Int, path: String) -> String {
        self.bundle(key, bundle) + String(version) + "/view" + Self.query(["path": path])
    }

    func diff(_ key: String, _ bundle: String, from: Int, to: Int, flavor: String? = nil) -> String {
        self.bundle(key, bundle) + "diff" + Self.query(["from": String(from), "to": String(to), "flavor": flavor])
    }

    /// `?a=1&b=2` from the values that are present, in a fixed order; "" when none is.
    static func query(_ values: KeyValuePairs<String, String?>) -> String {
        let pairs = values.compactMap { name, value in value.map { encoded(name) + "=" + encoded($0) } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    /// Every byte but the unreserved ones (RFC 3986) percent-encoded.
    static func encoded(_ text: String) -> String { PercentEncoding.encode(text) }
}
