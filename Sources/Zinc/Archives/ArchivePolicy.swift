/// Which versions keep archives: `config/archives.json`, `{"keep": "pointed"}` or
/// `{"keep": "all"}`. Old clients download the archive of the version their
/// distribution names, and only that one; new clients need none. So by default
/// (`pointed`, also when the file is absent) a version has its archives while a
/// distribution or its `_D` pointer names it, and for the grace period after; `all`
/// keeps an archive for every version, written at import, as before. The setting is a
/// file of its own because no key may be added to the files old clients read.
public enum ArchivePolicy: String, Sendable, CaseIterable {
    case pointed
    case all

    public static let path = "config/archives.json"

    /// What a catalog without the file does.
    public static let standard = ArchivePolicy.pointed

    /// Reads `config/archives.json`; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws -> ArchivePolicy {
        let allowed = allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
        guard let top = (try? JSONValue.parse(bytes))?.objectValue else {
            throw ZincError.corruptFile(path: path, reason: "not a JSON object")
        }
        guard let keep = top["keep"]?.stringValue, let policy = ArchivePolicy(rawValue: keep) else {
            throw ZincError.corruptFile(path: path, reason: "'keep' must be \(allowed)")
        }
        return policy
    }

    /// The bytes of `config/archives.json`.
    public func encoded() -> [UInt8] {
        JSONValue.object(["keep": .string(rawValue)]).encoded()
    }

    /// How `zinc list --sizes` says it.
    public var summary: String {
        switch self {
        case .pointed: return "archives: kept for the versions a distribution names (\(Self.path))"
        case .all: return "archives: kept for every version (\(Self.path))"
        }
    }
}

extension Catalog {
    /// The catalog's archive policy: `config/archives.json`, or `pointed` without it.
    public func archivePolicy() throws -> ArchivePolicy {
        guard let bytes = try storage.read(ArchivePolicy.path) else { return .standard }
        return try ArchivePolicy.parse(bytes, path: storage.location + "/" + ArchivePolicy.path)
    }

    /// Whether the catalog holds the archive of `manifest`'s version (of `flavor`, nil
    /// for the all-files one): for pricing updates (see `FetchPlan`).
    func holdsArchive(of manifest: Manifest, flavor: String?) throws -> Bool {
        try storage.exists(VersionFiles(of: manifest).archive(flavor))
    }

    /// Sets the archive policy. Setting `all` then writes the archives every listed
    /// version lacks (under the shared import lock, so that no clean removes them
    /// meanwhile), so that the catalog holds what an import with `all` would have
    /// written; returns their paths.
    @discardableResult
    public func setArchivePolicy(_ policy: ArchivePolicy) throws -> [String] {
        try storage.withImportLock(exclusive: false) { _ in
            try storage.write(policy.encoded(), to: ArchivePolicy.path)
            try storage.flush()
            guard policy == .all else { return [] }
            var written = [String]()
            for (name, bundle) in try index().bundles.sorted(by: { $0.key < $1.key }) {
                for version in bundle.versions { written += try writeMissingArchives(bundle: name, version: version) }
            }
            return written
        }
    }
}
