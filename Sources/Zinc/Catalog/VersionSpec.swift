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
        } else if let first = text.first, "vV".contains(first), let n = Int(text.dropFirst()), n >= 1 {
            // `v2`: the version as a tag or a clone's folder (`Core-v2`) spells it.
            throw ZincError.invalidVersionSpec(text, suggestion: String(n))
        } else {
            throw ZincError.invalidVersionSpec(text)
        }
    }

    /// `text` as a version of `bundle` in `catalog`. When it is none, the error says how
    /// to write what was most likely meant: `@test` for `test` or `tset` when the bundle
    /// has a distribution `test` (a distribution's name without its `@` is the usual
    /// slip). The catalog's index is read only then.
    public init(_ text: String, of bundle: String, in catalog: Catalog) throws {
        do {
            try self.init(text)
        } catch let error as ZincError where error == .invalidVersionSpec(text) {
            // No suggestion yet: the word may be a distribution's name without its `@`.
            let spec = text
            let distros = (try? catalog.index().bundles[bundle]?.distroNames) ?? []
            let word = spec.hasPrefix(":") || spec.hasPrefix("@") ? String(spec.dropFirst()) : spec
            let meant = distros.contains(word) ? word : Spelling.nearest(to: word, among: distros)
            throw ZincError.invalidVersionSpec(spec, suggestion: meant.map { "@" + $0 })
        }
    }

    public var description: String {
        switch self {
        case .number(let n): return String(n)
        case .latest: return "latest"
        case .distro(let name): return "@" + name
        }
    }

    /// The version this names in `bundle`, which must exist.
    package func resolve(in bundle: CatalogIndex.BundleEntry, name: String) throws -> Int {
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
            guard let v = bundle.distributions[distro] else {
                throw ZincError.distroNotFound(
                    bundle: name, distro: distro, suggestion: Spelling.nearest(to: distro, among: bundle.distroNames))
            }
            guard bundle.versions.contains(v) else {
                throw ZincError.versionNotFound(bundle: name, version: "\(v) (distribution '\(distro)' points at it)")
            }
            return v
        }
    }
}
