/// The catalog index (`catalog.json`, mirrored as `catalog.json.gz`, `index.json` and
/// `index.json.gz`): the catalog id and, per bundle, its versions, distributions and
/// the highest version number ever reserved.
package struct CatalogIndex: Equatable, Sendable {
    package var id: String
    package var bundles: [String: BundleEntry]

    /// One bundle in the index: its versions, its distributions and the next version
    /// number to give.
    package struct BundleEntry: Equatable, Sendable {
        /// Ascending, unique, each >= 1.
        package var versions: [Int]
        /// Distro name -> version; `_name` keeps the version `name` had before its last change.
        package var distributions: [String: Int]
        /// The highest version ever reserved (FORMAT.md's `next_version`): never goes down.
        package var nextVersion: Int

        package init(versions: [Int] = [], distributions: [String: Int] = [:], nextVersion: Int = 0) {
            self.versions = versions
            self.distributions = distributions
            self.nextVersion = nextVersion
        }

        package var latestVersion: Int? { versions.last }

        /// The names of its distributions, sorted, without the `_name` previous-version
        /// pointers that come with them.
        package var distroNames: [String] {
            distributions.keys.filter { !$0.hasPrefix("_") }.sorted()
        }

        /// The distros (and `_prev` pointers) that point at `version`, sorted.
        package func distributions(pointingAt version: Int) -> [String] {
            distributions.filter { $0.value == version }.map(\.key).sorted()
        }
    }

    package static let formatVersion = "1"
    /// The highest version number this tool reads or reserves. Clients keep version
    /// numbers in 32-bit integers (JavaZinc's `int`), so no catalog should go beyond it;
    /// a larger number in an index is refused as damage rather than overflowing later.
    package static let maximumVersion = Int(Int32.max)
    /// The canonical name first; the others mirror it byte for byte.
    package static let fileNames = ["catalog.json", "catalog.json.gz", "index.json", "index.json.gz"]

    package init(id: String, bundles: [String: BundleEntry] = [:]) {
        self.id = id
        self.bundles = bundles
    }

    /// Parses an index written by any Zinc tool: any key order or whitespace, with or
    /// without `next_version`, with the misspelled `next-version`, or in the 2012 draft
    /// layout (`bundles` as version lists plus top-level `distributions`).
    ///
    /// Bundles are read one at a time as the JSON is scanned, never as one tree of the
    /// whole document, so parsing takes about the memory of the bytes and the result.
    /// `onlyBundles` keeps only those bundles (a client needs the ones it tracks); the
    /// names of all are still checked.
    package static func parse(_ bytes: [UInt8], path: String, onlyBundles kept: Set<String>? = nil) throws -> CatalogIndex {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        var bundles = [String: BundleEntry]()
        // Writers sort keys, so `bundles` comes before `format`: what is wrong with a
        // bundle is reported only once the document is known to be an index of this format.
        var bundleProblem: Error?
        let top: [String: JSONValue]
        let hasBundles: Bool
        do {
            (top, hasBundles) = try JSONParser.parseObject(bytes, streaming: "bundles") { name, value in
                guard bundleProblem == nil else { return }
                do {
                    try Names.checked(in: path) { try Names.validateBundleName(name) }
                    let entry = try bundleEntry(name, value, path: path, corrupt)
                    guard kept?.contains(name) ?? true else { return }
                    guard bundles.updateValue(entry, forKey: name) == nil else { throw corrupt("bundle '\(name)' is listed twice") }
                } catch {
                    bundleProblem = error
                }
            }
        } catch {
            throw corrupt("not JSON (\(error))")
        }
        guard let format = top["format"] else { throw corrupt("no 'format' key: not a Zinc catalog index") }
        let formatText = format.stringValue ?? format.intValue.map(String.init) ?? "\(format)"
        guard formatText == formatVersion else { throw ZincError.unsupportedFormat(path: path, format: formatText) }
        guard let id = top["id"]?.stringValue else { throw corrupt("no string 'id'") }
        try Names.checked(in: path) { try Names.validateCatalogID(id) }
        guard hasBundles else { throw corrupt("no 'bundles' object") }
        if let bundleProblem { throw bundleProblem }
        if let draft = top["distributions"]?.objectValue {  // 2012 draft: {"master": {"B": 1}}
            for (distro, pointers) in draft {
                try Names.checked(in: path) { try Names.validateDistroKey(distro) }
                for (name, version) in pointers.objectValue ?? [:] {
                    guard let v = version.intValue, (1...Int64(maximumVersion)).contains(v), bundles[name] != nil else { continue }
                    bundles[name]!.distributions[distro] = Int(v)
                }
            }
        }
        return CatalogIndex(id: id, bundles: bundles)
    }

    /// One bundle's entry, from its JSON: an object, or (2012 draft) a list of versions.
    private static func bundleEntry(
        _ name: String, _ value: JSONValue, path: String,
        _ corrupt: (String) -> ZincError
    ) throws -> BundleEntry {
        if let list = value.arrayValue {  // 2012 draft: "bundles": {"B": [1, 2]}
            let versions = try versions(list, bundle: name, corrupt)
            return BundleEntry(versions: versions, nextVersion: versions.last ?? 0)
        }
        guard let entry = value.objectValue else { throw corrupt("bundle '\(name)' is not an object") }
        guard let list = entry["versions"]?.arrayValue else { throw corrupt("bundle '\(name)' has no 'versions' list") }
        var bundle = BundleEntry(versions: try versions(list, bundle: name, corrupt))
        if let distros = entry["distributions"] {
            guard let object = distros.objectValue else { throw corrupt("bundle '\(name)': 'distributions' is not an object") }
            for (distro, version) in object {
                try Names.checked(in: path) { try Names.validateDistroKey(distro) }
                guard let v = version.intValue, (1...Int64(maximumVersion)).contains(v) else {
                    throw corrupt("bundle '\(name)': distribution '\(distro)' is not a version number from 1 to \(maximumVersion)")
                }
                bundle.distributions[distro] = Int(v)
            }
        }
        if let reserved = entry["next_version"] ?? entry["next-version"] {
            guard let v = reserved.intValue, (0...Int64(maximumVersion)).contains(v) else {
                throw corrupt("bundle '\(name)': 'next_version' is not a number from 0 to \(maximumVersion)")
            }
            bundle.nextVersion = Int(v)
        }
        bundle.nextVersion = max(bundle.nextVersion, bundle.versions.last ?? 0)
        return bundle
    }

    private static func versions(_ list: [JSONValue], bundle: String, _ corrupt: (String) -> ZincError) throws -> [Int] {
        var versions = [Int]()
        for item in list {
            guard let v = item.intValue, (1...Int64(maximumVersion)).contains(v) else {
                throw corrupt(
                    "bundle '\(bundle)': version \(String(decoding: item.encoded(), as: UTF8.self)) is not a number from 1 to \(maximumVersion)"
                )
            }
            versions.append(Int(v))
        }
        return Array(Set(versions)).sorted()
    }

    /// The versions listed more than once in an index's raw JSON, per bundle: `parse`
    /// keeps one of each, so only `verify` can tell that a writer listed one twice.
    package static func repeatedVersions(in bytes: [UInt8]) -> [(bundle: String, version: Int)] {
        var repeated = [(bundle: String, version: Int)]()
        _ = try? JSONParser.parseObject(bytes, streaming: "bundles") { name, value in
            let list = value.objectValue?["versions"]?.arrayValue ?? value.arrayValue ?? []
            var seen = Set<Int64>()
            for version in list.compactMap(\.intValue) where !seen.insert(version).inserted {
                repeated.append((name, Int(version)))
            }
        }
        return repeated.sorted { $0.bundle < $1.bundle }
    }

    /// Refuses an index no writer may commit: a bundle's versions not strictly ascending
    /// (a version listed twice), or a reserved number below a listed version.
    package func checkWritable() throws {
        for (name, bundle) in bundles {
            for (a, b) in zip(bundle.versions, bundle.versions.dropFirst()) where a >= b {
                throw ZincError.duplicateIndexVersion(bundle: name, version: b)
            }
            if let last = bundle.versions.last, last > bundle.nextVersion {
                throw ZincError.nextVersionBelowListed(bundle: name, version: last)
            }
        }
    }

    /// A bundle keeps its entry when its last version is deleted (with no versions and
    /// its `next_version`), so that its version numbers are never handed out again.
    package func json() -> JSONValue {
        var bundlesJSON = [String: JSONValue]()
        for (name, bundle) in bundles {
            bundlesJSON[name] = .object([
                "versions": .array(bundle.versions.map { .int(Int64($0)) }),
                "distributions": .object(bundle.distributions.mapValues { .int(Int64($0)) }),
                "next_version": .int(Int64(bundle.nextVersion)),
            ])
        }
        return .object(["id": .string(id), "format": .string(Self.formatVersion), "bundles": .object(bundlesJSON)])
    }

    /// The compact JSON of `json()`, written straight from the bundles: an index of
    /// millions of version numbers is never held as a tree of `JSONValue`s as well.
    package func encoded() -> [UInt8] {
        var out = Array(#"{"bundles":{"#.utf8)
        for (i, name) in bundles.keys.sorted(by: JSONValue.keyPrecedes).enumerated() {
            let bundle = bundles[name]!
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &out)
            out += Array(#":{"distributions":{"#.utf8)
            for (j, distro) in bundle.distributions.keys.sorted(by: JSONValue.keyPrecedes).enumerated() {
                if j > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(distro, to: &out)
                out.append(UInt8(ascii: ":"))
                out += String(bundle.distributions[distro]!).utf8
            }
            out += Array(#"},"next_version":"#.utf8) + String(bundle.nextVersion).utf8 + Array(#","versions":["#.utf8)
            for (j, version) in bundle.versions.enumerated() {
                if j > 0 { out.append(UInt8(ascii: ",")) }
                out += String(version).utf8
            }
            out += Array("]}".utf8)
        }
        out += Array(#"},"format":"#.utf8)
        JSONValue.writeString(Self.formatVersion, to: &out)
        out += Array(#","id":"#.utf8)
        JSONValue.writeString(id, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The entry of bundle `name`; ``ZincError/bundleNotFound(_:suggestion:)`` (naming the
    /// nearest bundle) when the index has none.
    package func bundle(_ name: String) throws -> BundleEntry {
        guard let bundle = bundles[name] else {
            throw ZincError.bundleNotFound(name, suggestion: Spelling.nearest(to: name, among: bundles.keys.sorted()))
        }
        return bundle
    }
}
