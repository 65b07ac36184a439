import Zinc

/// A version's files as a sync read them: in the table file beside its kept manifest, read
/// as a stream whenever they are needed (what an update from a spare folder goes through:
/// the new version's files are never held), or held whole (those of a manifest whose
/// files are not in path order).
enum VersionTable: Sendable {
    case held(CompactManifest)
    /// The table at `path`, sound, describing `subject`, laid out as `layout` says.
    case file(path: String, subject: ManifestTable.Subject, layout: ManifestTable.Layout)

    /// The files of every flavor.
    var rowCount: Int {
        switch self {
        case .held(let table): table.rows.count
        case .file(_, _, let layout): layout.header.fileCount
        }
    }

    /// The files of `flavor` (every file for nil), one at a time in path order.
    func rows(flavor: String?) throws -> any ManifestRowCursor {
        switch self {
        case .held(let table):
            return CompactManifest.Cursor(table, flavor: flavor)
        case .file(let path, _, let layout):
            return try ManifestTableRows(file: PosixFile.open(path), path: path, layout: layout).cursor(flavor: flavor)
        }
    }

    /// Gives `body` each file of `flavor`'s object, in path order: from a table file, its
    /// rows alone, whose paths the update's merge checked already.
    func forEachObject(flavor: String?, _ body: (StoredObject) -> Void) throws {
        switch self {
        case .held(let table):
            var rows = CompactManifest.Cursor(table, flavor: flavor)
            while rows.next() { body(rows.object) }
        case .file(let path, _, let layout):
            try ManifestTableRows(file: PosixFile.open(path), path: path, layout: layout).forEachObject(flavor: flavor, body)
        }
    }

    /// The files of `flavor` (every file for nil).
    func fileCount(flavor: String?) throws -> Int {
        if case .held(let table) = self { return table.fileCount(flavor: flavor) }
        var count = 0
        try forEachObject(flavor: flavor) { _ in count += 1 }
        return count
    }

    /// The kept manifest of `version`, from its table when `trust` takes it and it is
    /// sound (checked whole, nothing of it kept), else read as a stream into a table
    /// written afresh (its files held only when they are not in path order); nil when
    /// the repo has no manifest of it. With `hashing`, the SHA-256 of the kept JSON is
    /// returned too, taken in the pass that reads it.
    static func kept(
        catalog: String, bundle: String, version: Int, in repo: Repo, trust: ManifestTable.Trust, hashing: Bool
    ) throws -> (header: ManifestHeader, files: VersionTable, sha256: SHA256.Digest?)? {
        guard var subject = try ManifestTable.subject(catalog: catalog, bundle: bundle, version: version, in: repo, trust: trust)
        else { return nil }
        let path = repo.manifestTableFile(catalog, bundle: bundle, version: version)
        if trust != .never, !hashing || subject.sha256 != nil, let file = try? PosixFile.open(path),
            let layout = try? ManifestTable.layout(file, subject: subject)
        {
            return (layout.header, .file(path: path, subject: subject, layout: layout), subject.sha256)
        }
        let hasher = subject.sha256 == nil && hashing ? SHA256() : nil
        let copy = hasher.map { hasher in { (piece: UnsafeRawBufferPointer) in hasher.update(piece) } }
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version, copy: copy) else { return nil }
        let (header, writer) = try ManifestTableWriter.read(document, scratchFolder: repo.temporaryFolder)
        subject.sha256 = subject.sha256 ?? hasher?.finalize()
        return (header, try written(writer, header: header, subject: subject, at: path, in: repo), subject.sha256)
    }

    /// The files `writer` read, as its table installed at `path` (for the kept manifest
    /// `subject`); held when they were not in path order, or the table could not be
    /// written: then read again from the kept manifest and sorted, the table written from them.
    static func written(
        _ writer: ManifestTableWriter, header: ManifestHeader, subject: ManifestTable.Subject, at path: String, in repo: Repo
    ) throws -> VersionTable {
        if writer.inPathOrder, let layout = try? writer.install(header, manifest: subject, at: path) {
            return .file(path: path, subject: subject, layout: layout)
        }
        guard let document = try repo.keptManifest(catalog: subject.catalog, bundle: subject.bundle, version: subject.version) else {
            throw ZincError.corruptFile(
                path: repo.manifestFile(subject.catalog, bundle: subject.bundle, version: subject.version),
                reason: "the manifest kept for this sync is gone")
        }
        let table = try CompactManifest.read(document).table
        ManifestTable.write(header, table, manifest: subject, to: path)
        return .held(table)
    }
}
