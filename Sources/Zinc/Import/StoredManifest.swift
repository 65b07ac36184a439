/// One version's manifest as its JSON, read to compare a tree with it without building
/// the manifest's table of files.
struct StoredManifest {
    let version: Int
    let bytes: [UInt8]
    let path: String

    /// Version `version` of bundle `bundle`, or nil when its manifest cannot be read.
    init?(bundle: String, version: Int, in catalog: Catalog) {
        guard let (bytes, path) = try? catalog.manifestBytes(bundle: bundle, version: version) else { return nil }
        self.version = version
        self.bytes = bytes
        self.path = path
    }

    /// Whether it holds exactly these files (paths in manifest order, content, flavors).
    /// Compared entry by entry as it is parsed, never held as a table.
    func holdsExactly(paths: [String], digest: (Int) -> SHA1.Digest, fileFlavors: [[String]?]) throws -> Bool {
        var seen = [Bool](repeating: false, count: paths.count)
        var same = true
        let manifest = try Manifest.parse(bytes, path: path) { filePath, entry in
            guard same, let i = Self.position(of: filePath, in: paths), !seen[i], entry.object.digest == digest(i),
                (entry.flavors ?? []) == (fileFlavors[i] ?? [])
            else {
                same = false
                return
            }
            seen[i] = true
        }
        return same && !seen.contains(false) && manifest.flavors == VersionDraft.firstSeen(fileFlavors)
    }

    /// Where `path` is among `paths`, which are in manifest order. Compared byte by byte:
    /// `String`'s `==` would take two spellings of "é" for one path.
    private static func position(of path: String, in paths: [String]) -> Int? {
        let i = paths.partitionPoint { $0.utf8.lexicographicallyPrecedes(path.utf8) }
        return i < paths.count && paths[i].utf8.elementsEqual(path.utf8) ? i : nil
    }
}
