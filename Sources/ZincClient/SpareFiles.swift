import Zinc

/// The files of a bundle's spare version, as an update compares them with the new
/// version's: streamed from its kept table (`ManifestTableRows`), nothing of them held,
/// when the table is sound; else its table read whole as before, from the manifest read
/// as a stream (the table then written afresh).
struct SpareFiles {
    private let tracked: RepoState.TrackedBundle
    private let version: Int
    private let repo: Repo
    private let trust: ManifestTable.Trust
    /// The sound table, read at each comparison; nil when the files were loaded.
    private let table: ManifestTableRows?
    private let loaded: CompactManifest?

    /// The files of `tracked`'s bundle at `version`, nil when neither its table nor its
    /// manifest can be read (the spare is then of no use: the version is built whole).
    init?(_ tracked: RepoState.TrackedBundle, version: Int, in repo: Repo, trust: ManifestTable.Trust) {
        (self.tracked, self.version, self.repo, self.trust) = (tracked, version, repo, trust)
        table = try? ManifestTableRows(tracked, version: version, in: repo, trust: trust)
        loaded = table == nil ? try? CompactManifest.read(tracked, version: version, in: repo, trust: trust) : nil
        guard table != nil || loaded != nil else { return nil }
    }

    /// What turns these files into `new`'s, of the tracked flavor (see
    /// `ManifestChanges.init(merging:into:)`); nil when a row of either table broke a
    /// rule and the spare's manifest cannot be read either.
    func changes(to new: VersionTable) -> ManifestChanges? {
        let flavor = tracked.flavor
        func merge(_ earlier: ((UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws -> Void) throws -> ManifestChanges {
            var rows = try new.rows(flavor: flavor)
            return try ManifestChanges(merging: earlier, into: &rows)
        }
        if let table, let changes = try? merge({ try table.forEach(flavor: flavor, $0) }) { return changes }
        // A table refused: read whole from the manifest, as a table that fails a check is.
        guard let files = loaded ?? (try? CompactManifest.read(tracked, version: version, in: repo, trust: trust)) else { return nil }
        return try? merge { files.forEachPath(flavor: flavor, $0) }
    }
}
