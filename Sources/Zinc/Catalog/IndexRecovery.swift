/// Reading the index when its commit point, `catalog.json`, is not even JSON (a disk or
/// a truncation, not a writer: writers replace it atomically) but another copy is intact.
///
/// The copy used is the one the index signature covers, else the one ahead of every
/// other (no bundle's `next_version` lower, one higher: reservations only grow). When
/// intact copies disagree otherwise, neither can be told right: the read fails, naming
/// both, and nothing is written. A reader uses the copy as it is; the first writer (or
/// `zinc verify --repair`) writes it back to `catalog.json`, by compare-and-swap on the
/// damaged file.
extension Catalog {
    /// An index copy that gunzips (for the `.gz` ones) and parses.
    struct IntactCopy {
        let name: String
        let bytes: [UInt8]
        let index: CatalogIndex
    }

    /// The copies among `names` that are present and parse, each content once (the first
    /// name holding it).
    func intactCopies(_ names: [String]) throws -> [IntactCopy] {
        var seen = [[UInt8]]()
        return try names.compactMap { name in
            guard var bytes = try storage.read(name) else { return nil }
            if name.hasSuffix(".gz") {
                guard let plain = try? GzipDecompressor.decompress(bytes, limit: Self.indexCopyLimit) else { return nil }
                bytes = plain
            }
            guard !seen.contains(bytes) else { return nil }
            seen.append(bytes)
            return (try? CatalogIndex.parse(bytes, path: storage.location + "/" + name)).map {
                IntactCopy(name: name, bytes: bytes, index: $0)
            }
        }
    }

    /// The index from the other copies, `catalog.json` (at `version`) having failed to
    /// parse with `damage`.
    func recoverIndex(damaged version: StorageVersion, damage: ZincError) throws -> StoredIndex {
        let copies = try intactCopies(Self.indexCopies)
        guard let source = try recoverySource(among: copies) else {
            guard copies.count > 1 else { throw damage }
            throw ZincError.corruptFile(
                path: storage.location + "/" + Self.commitPoint,
                reason: "\(Self.reason(damage)); its intact copies disagree, so none was used and nothing was written: "
                    + copies.map { "\($0.name) lists \(Self.summary(of: $0.index))" }.joined(separator: "; "))
        }
        return StoredIndex(
            index: source.index, bytes: source.bytes, version: version,
            recovery: .init(source: source.name, damage: Self.reason(damage)))
    }

    private func recoverySource(among copies: [IntactCopy]) throws -> IntactCopy? {
        if copies.count < 2 { return copies.first }
        if let signature = try storage.read(IndexSignature.path),
            let signed = try? IndexSignature.parseUnverified(signature, path: IndexSignature.path).indexSHA256,
            let covered = copies.first(where: { SHA256.digest($0.bytes) == signed })
        {
            return covered
        }
        return copies.first { copy in copies.allSatisfy { $0.name == copy.name || Self.isAhead(copy.index, of: $0.index) } }
    }

    /// Whether `index` has reserved at least as much as `other` in every bundle either
    /// lists, and more in one.
    private static func isAhead(_ index: CatalogIndex, of other: CatalogIndex) -> Bool {
        let names = Set(index.bundles.keys).union(other.bundles.keys)
        let pairs = names.map { (index.bundles[$0]?.nextVersion ?? -1, other.bundles[$0]?.nextVersion ?? -1) }
        return pairs.allSatisfy { $0.0 >= $0.1 } && pairs.contains { $0.0 > $0.1 }
    }

    /// The words of `error` after the path it names.
    private static func reason(_ error: ZincError) -> String {
        guard error.code == .corruptFile, let reason = error.reason else { return error.description }
        return reason
    }

    /// Each bundle's versions, reservation and distributions, for telling copies apart.
    private static func summary(of index: CatalogIndex) -> String {
        let bundles = index.bundles.sorted { $0.key < $1.key }.map { name, entry in
            let distros = entry.distributions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "'\(name)' versions \(entry.versions.map(String.init).joined(separator: ",")), next_version \(entry.nextVersion)"
                + (distros.isEmpty ? "" : ", " + distros.joined(separator: " "))
        }
        return bundles.isEmpty ? "no bundle" : bundles.joined(separator: ", ")
    }
}

/// Where an index read from a copy other than `catalog.json` came from, and why.
struct IndexRecovery {
    /// The copy read, such as `index.json`.
    let source: String
    /// What is wrong with `catalog.json`.
    let damage: String

    /// The command that repairs the index of the catalog at `location`, quoted.
    static func repairHint(for location: String) -> String {
        ShellQuoting.hint(["verify", "--repair", "--catalog", location])
    }
}
