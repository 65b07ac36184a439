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

    /// Finds the manifests, archives and objects that no listed version refers to, and
    /// temporary files abandoned by writers; removes them when `force`, else only reports.
    ///
    /// Holds the import lock exclusively throughout: an import's objects are referenced
    /// by no manifest until it commits, so `clean` waits for running imports to finish
    /// and keeps new ones out until it is done. The dry run takes it too, so its list is
    /// exactly what a forced run would remove at that moment.
    public func clean(force: Bool = false,
                      progress: (@Sendable (MaintenanceProgress) -> Void)? = nil) throws -> CleanReport {
        try storage.withImportLock(exclusive: true) {
            let referenced = try referencedFiles()
            // Writers commit objects, then archives, then manifests; removing in reverse
            // means no remaining file ever refers to one already gone.
            var garbage = [String]()
            for folder in ["manifests", "archives", "objects"] {
                garbage += try storage.list(folder).filter { !referenced.contains($0) }
            }
            garbage += try storage.abandonedTemporaryFiles(olderThan: Self.abandonedTemporaryAge)
            // A file that vanished since the listing (another clean) is no longer garbage to report.
            let files = try garbage.compactMap { path in try storage.size(of: path).map { CleanReport.Garbage(path: path, size: $0) } }
            if force {
                let counter = ProgressCounter<MaintenanceProgress>(.removing, totalItems: files.count,
                                                         totalBytes: files.reduce(0) { $0 + $1.size }, report: progress)
                for file in files {
                    try storage.delete(file.path)
                    counter.finishedItem(bytes: file.size)
                }
            }
            return CleanReport(files: files, removed: force)
        }
    }

    /// Every manifest, archive and object file that a listed version refers to. Read
    /// under the writer lock so that a concurrent `delete_bundle` cannot remove a
    /// manifest between reading the index that lists it and reading the manifest.
    private func referencedFiles() throws -> Set<String> {
        try storage.withExclusiveLock {
            let index = try self.index()
            var referenced = Set<String>()
            for (name, bundle) in index.bundles {
                for version in bundle.versions {
                    let manifest: Manifest
                    do {
                        manifest = try self.manifest(bundle: name, version: version)
                    } catch {
                        // Without it, the objects this version uses are unknown: removing nothing is the only safe answer.
                        throw ZincError.integrity(path: storage.location + "/" + Manifest.path(bundle: name, version: version),
                                                  reason: "\(error); clean removed nothing (run verify)")
                    }
                    referenced.insert(manifest.path)
                    referenced.insert(manifest.path + ".gz")
                    for scope in [nil] + manifest.flavors {
                        referenced.insert(Catalog.archivePath(bundle: name, version: version, flavor: scope))
                    }
                    for entry in manifest.files.values {
                        for format in entry.object.formats.keys {
                            referenced.insert(StoredObject.path(sha: entry.sha, format: format))
                        }
                    }
                }
            }
            return referenced
        }
    }
}
