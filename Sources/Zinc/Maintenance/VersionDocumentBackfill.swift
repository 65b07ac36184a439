/// What the backfill commands (`add_chunk_lists`, `add_content_sizes`) share: each
/// version of a bundle (or of every bundle) that lacks one kind of version file gets
/// it, made from its manifest and written create-only, under the import lock held
/// shared (beside imports, never beside a clean, which could remove the objects read).
struct VersionDocumentBackfill {
    let catalog: Catalog
    let bundle: String?

    /// Calls `make` with the manifest of each version whose file (`path` names it) is
    /// absent, in order of bundle and version, and writes what it returns, gzipped; nil
    /// writes nothing. Returns the files written.
    func run(path: (VersionFiles) -> String, make: (Manifest) throws -> [UInt8]?) throws -> [String] {
        if let bundle { try Names.validateBundleName(bundle) }
        let storage = catalog.storage
        let index = try catalog.index()
        let bundles = try bundle.map { [($0, try index.bundle($0))] } ?? index.bundles.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return try storage.withImportLock(exclusive: false) { _ in
            var written = [String]()
            for (name, entry) in bundles {
                for version in entry.versions {
                    let file = path(VersionFiles(bundle: name, version: version))
                    guard try !storage.exists(file), let document = try make(catalog.manifest(bundle: name, version: version)) else {
                        continue
                    }
                    // Immutable once there: another run that wrote it first wrote the same.
                    if try storage.write(GzipCompressor.compress(document), to: file, .ifAbsent) == .written { written.append(file) }
                }
            }
            try storage.flush()
            return written
        }
    }
}
