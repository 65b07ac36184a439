/// What `clean` found, and whether it removed it.
public struct CleanReport: Equatable, Sendable {
    public struct Garbage: Equatable, Sendable {
        public let path: String
        public let size: Int64
    }

    /// In removal order: manifests, archives, objects, then abandoned temporary files.
    public let files: [Garbage]
    /// False for a dry run.
    public let removed: Bool

    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }
}

extension Catalog {
    /// A temporary file untouched for this long is abandoned whoever wrote it: writers
    /// commit or discard a file as soon as its last byte is written.
    public static let abandonedTemporaryAge: Duration = .seconds(3600)

    /// Finds the manifests, archives and objects that no copy of the index refers to,
    /// temporary files abandoned by writers and lock objects whose holders are gone;
    /// removes them when `force`, else only reports.
    ///
    /// Holds the import lock exclusively throughout: an import's objects are referenced
    /// by no manifest until it commits, so `clean` waits for running imports to finish
    /// and keeps new ones out until it is done. The dry run takes it too, so its list is
    /// exactly what a forced run would remove at that moment. What any of the four index
    /// copies lists is kept, even in a copy an interrupted writer left behind (clients
    /// may have read it); a forced run then repairs the copies, so the next run can
    /// remove what only the lagging copy listed.
    public func clean(force: Bool = false,
                      progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> CleanReport {
        try storage.withImportLock(exclusive: true) { lock in
            let referenced = try referencedFiles()
            if force { try repairIndexCopies() }
            // Writers commit objects, then archives, then manifests; removing in reverse
            // means no remaining file ever refers to one already gone.
            var garbage = [String]()
            for folder in ["manifests", "archives", "objects"] {
                garbage += try storage.list(folder).filter { !referenced.contains($0) }
            }
            garbage += try storage.abandonedTemporaryFiles(olderThan: Self.abandonedTemporaryAge)
            garbage += try LockObjects(storage: storage, policy: storage.lockPolicy).staleLocks()
            // A file that vanished since the listing (another clean) is no longer garbage to report.
            let files = try garbage.compactMap { path in try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) } }
            if force {
                let counter = ProgressCounter<MaintenanceProgress>(.removing, totalItems: files.count,
                                                         totalBytes: files.reduce(0) { $0 + $1.size }, report: progress)
                for (n, file) in files.enumerated() {
                    // A lock object must still be ours: an import may start once it looks stale.
                    if n % Self.filesPerLockCheck == 0 { try lock.confirm() }
                    try storage.delete(file.path)
                    counter.finishedItem(bytes: file.size)
                }
            }
            return CleanReport(files: files, removed: force)
        }
    }

    /// How many files `clean` removes between two checks that it still holds its lock.
    private static let filesPerLockCheck = 256

    /// Every manifest, archive and object file that a version listed by any copy of the
    /// index refers to. A manifest that a concurrent `delete_bundle` removed after the
    /// copies were read is skipped once no copy lists its version any more.
    private func referencedFiles() throws -> Set<String> {
        var listed = Set<BundleVersion>()
        for copy in try indexCopies() {
            for (name, bundle) in copy.bundles {
                for version in bundle.versions { listed.insert(BundleVersion(bundle: name, version: version)) }
            }
        }
        var referenced = Set<String>()
        for item in listed {
            let manifest: Manifest
            do {
                manifest = try self.manifest(bundle: item.bundle, version: item.version)
            } catch {
                let stillListed = try indexCopies().contains { $0.bundles[item.bundle]?.versions.contains(item.version) == true }
                if !stillListed { continue }
                // Without it, the objects this version uses are unknown: removing nothing is the only safe answer.
                throw ZincError.integrity(path: storage.location + "/" + Manifest.path(bundle: item.bundle, version: item.version),
                                          reason: "\(error); clean removed nothing (run verify)")
            }
            referenced.insert(manifest.path)
            referenced.insert(manifest.path + ".gz")
            for scope in [nil] + manifest.flavors {
                referenced.insert(Catalog.archivePath(bundle: item.bundle, version: item.version, flavor: scope))
            }
            for entry in manifest.files.values {
                for format in entry.object.formats.keys {
                    referenced.insert(StoredObject.path(sha: entry.sha, format: format))
                }
            }
        }
        return referenced
    }
}

private struct BundleVersion: Hashable {
    let bundle: String
    let version: Int
}
