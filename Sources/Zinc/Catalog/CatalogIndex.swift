/// The catalog index (`catalog.json`, mirrored as `catalog.json.gz`, `index.json` and
/// `index.json.gz`): the catalog id and, per bundle, its versions, distributions and
/// the highest version number ever reserved.
public struct CatalogIndex: Equatable, Sendable {
    public var id: String
    public var bundles: [String: BundleEntry]

    public struct BundleEntry: Equatable, Sendable {
        /// Ascending, unique, each >= 1.
        public var versions: [Int]
        /// Distro name -> version; `_name` keeps the version `name` had before its last change.
        public var distributions: [String: Int]
        /// The highest version ever reserved (FORMAT.md's `next_version`): never goes down.
        public var nextVersion: Int

        public init(versions: [Int] = [], distributions: [String: Int] = [:], nextVersion: Int = 0) {
            self.versions = versions
            self.distributions = distributions
            self.nextVersion = nextVersion
        }

        public var latestVersion: Int? { versions.last }

        /// The distros (and `_prev` pointers) that point at `version`, sorted.
        public func distributions(pointingAt version: Int) -> [String] {
            distributions.filter { $0.value == version }.map(\.key).sorted()
        }
    }

    public static let formatVersion = "1"
    /// The canonical name first; the others mirror it byte for byte.
    public static let fileNames = ["catalog.json", "catalog.json.gz", "index.json", "index.json.gz"]

    public init(id: String, bundles: [String: BundleEntry] = [:]) {
        self.id = id
        self.bundles = bundles
    }

    /// Parses an index written by any Zinc tool: any key order or whitespace, with or
    /// without `next_version`, with the misspelled `next-version`, or in the 2012 draft
    /// layout (`bundles` as version lists plus top-level `distributions`).
    public static func parse(_ bytes: [UInt8], path: String) throws -> CatalogIndex {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw corrupt("not JSON (\(error))") }
        guard let top = json.objectValue else { throw corrupt("the index is not a JSON object") }
        guard let format = top["format"] else { throw corrupt("no 'format' key: not a Zinc catalog index") }
        let formatText = format.stringValue ?? format.intValue.map(String.init) ?? "\(format)"
        guard formatText == formatVersion else { throw ZincError.unsupportedFormat(path: path, format: formatText) }
        guard let id = top["id"]?.stringValue else { throw corrupt("no string 'id'") }
        guard let bundlesValue = top["bundles"]?.objectValue else { throw corrupt("no 'bundles' object") }

        var bundles = [String: BundleEntry]()
        for (name, value) in bundlesValue {
            if let list = value.arrayValue {  // 2012 draft: "bundles": {"B": [1, 2]}
                let versions = try versions(list, bundle: name, corrupt)
                bundles[name] = BundleEntry(versions: versions, nextVersion: versions.last ?? 0)
                continue
            }
            guard let entry = value.objectValue else { throw corrupt("bundle '\(name)' is not an object") }
            guard let list = entry["versions"]?.arrayValue else { throw corrupt("bundle '\(name)' has no 'versions' list") }
            var bundle = BundleEntry(versions: try versions(list, bundle: name, corrupt))
            if let distros = entry["distributions"] {
                guard let object = distros.objectValue else { throw corrupt("bundle '\(name)': 'distributions' is not an object") }
                for (distro, version) in object {
                    guard let v = version.intValue else { throw corrupt("bundle '\(name)': distribution '\(distro)' is not a version number") }
                    bundle.distributions[distro] = Int(v)
                }
            }
            let reserved = entry["next_version"] ?? entry["next-version"]
            if let reserved {
                guard let v = reserved.intValue, v >= 0 else { throw corrupt("bundle '\(name)': 'next_version' is not a number") }
                bundle.nextVersion = Int(v)
            }
            bundle.nextVersion = max(bundle.nextVersion, bundle.versions.last ?? 0)
            bundles[name] = bundle
        }
        if let draft = top["distributions"]?.objectValue {  // 2012 draft: {"master": {"B": 1}}
            for (distro, pointers) in draft {
                for (name, version) in pointers.objectValue ?? [:] {
                    guard let v = version.intValue, bundles[name] != nil else { continue }
                    bundles[name]!.distributions[distro] = Int(v)
                }
            }
        }
        return CatalogIndex(id: id, bundles: bundles)
    }

    private static func versions(_ list: [JSONValue], bundle: String, _ corrupt: (String) -> ZincError) throws -> [Int] {
        var versions = [Int]()
        for item in list {
            guard let v = item.intValue, v >= 1 else { throw corrupt("bundle '\(bundle)': version \(item) is not a positive integer") }
            versions.append(Int(v))
        }
        return Array(Set(versions)).sorted()
    }

    public func json() -> JSONValue {
        var bundlesJSON = [String: JSONValue]()
        for (name, bundle) in bundles where !bundle.versions.isEmpty {
            bundlesJSON[name] = .object([
                "versions": .array(bundle.versions.map { .int(Int64($0)) }),
                "distributions": .object(bundle.distributions.mapValues { .int(Int64($0)) }),
                "next_version": .int(Int64(bundle.nextVersion)),
            ])
        }
        return .object(["id": .string(id), "format": .string(Self.formatVersion), "bundles": .object(bundlesJSON)])
    }

    public func encoded() -> [UInt8] { json().encoded() }

    public func bundle(_ name: String) throws -> BundleEntry {
        guard let bundle = bundles[name] else { throw ZincError.bundleNotFound(name) }
        return bundle
    }
}
