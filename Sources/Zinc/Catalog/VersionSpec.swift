/// How a user names a version: a number, `latest`, or `@DISTRO` (the version that
/// distro points at). The Python tool's spellings `:latest` and `@distro` work too.
public enum VersionSpec: Equatable, Sendable, CustomStringConvertible {
    case number(Int)
    case latest
    case distro(String)

    public init(_ text: String) throws {
        if text == "latest" || text == ":latest" {
            self = .latest
        } else if text.hasPrefix("@") {
            let name = String(text.dropFirst())
            guard !name.isEmpty else { throw ZincError.invalidVersionSpec(text) }
            self = .distro(name)
        } else if let n = Int(text), n >= 1 {
            self = .number(n)
        } else {
            throw ZincError.invalidVersionSpec(text)
        }
    }

    /// `@master` for `master`: a word given as a version is most likely a distro's name
    /// without its `@`, the mistake the error for it points out. Nil for text that
    /// cannot name a distro (numbers, `:all`, names with a '/').
    static func distroSpelling(of text: String) -> String? {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            (try? Names.validateDistroKey(text)) != nil
        else { return nil }
        return "@" + text
    }

    public var description: String {
        switch self {
        case .number(let n): return String(n)
        case .latest: return "latest"
        case .distro(let name): return "@" + name
        }
    }

    /// The version this names in `bundle`, which must exist.
    public func resolve(in bundle: CatalogIndex.BundleEntry, name: String) throws -> Int {
        switch self {
        case .number(let n):
            guard bundle.versions.contains(n) else { throw ZincError.versionNotFound(bundle: name, version: String(n)) }
            return n
        case .latest:
            guard let latest = bundle.latestVersion else {
                throw ZincError.versionNotFound(bundle: name, version: "latest (it has no versions)")
            }
            return latest
        case .distro(let distro):
            guard let v = bundle.distributions[distro] else { throw ZincError.distroNotFound(bundle: name, distro: distro) }
            guard bundle.versions.contains(v) else {
                throw ZincError.versionNotFound(bundle: name, version: "\(v) (distribution '\(distro)' points at it)")
            }
            return v
        }
    }
}
