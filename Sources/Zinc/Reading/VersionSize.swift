/// What one version of a bundle weighs, as `zinc list --sizes` shows it: its files, their
/// content and stored bytes, and what a client on the version before pays to update.
public struct VersionSize: Equatable, Sendable {
    public let version: Int
    public let files: Int
    /// The files' contents (a file stored gzipped in a version without a sizes file has
    /// no recorded content size: it is counted in `unknown`).
    public let content: SizeTotal
    /// The distinct objects' stored bytes: what a client holding nothing downloads.
    public let stored: SizeTotal
    /// The update from the version before (the bundle's previous version still in the
    /// index), priced like `zinc diff`; nil for the first.
    public let update: VersionDiff?

    /// The sizes of `manifest`'s files (of `flavor`, all for nil) and, with the previous
    /// version's manifest, its update (`archiveStored`: priced with the version's archive).
    /// `chunks` and `sizes`: the version's chunk list and sizes file, if it has them.
    package init(
        _ manifest: Manifest, chunks: ChunkList?, sizes: ContentSizes?, flavor: String? = nil,
        previous: (manifest: Manifest, chunks: ChunkList?, sizes: ContentSizes?)? = nil, model: CostModel = CostModel(),
        archiveStored: Bool = true
    ) throws {
        var content = SizeTotal()
        var files = 0
        for entry in manifest.files.values where entry.isIn(flavor: flavor) {
            content.add(entry.object.contentSize(sizes: sizes))
            files += 1
        }
        var stored = SizeTotal()
        for object in manifest.objectsByDigest(flavor: flavor).values { stored.add(object.preferredSize) }
        version = manifest.version
        self.files = files
        self.content = content
        self.stored = stored
        update = try previous.map {
            try VersionDiff(
                from: $0.manifest, to: manifest, flavor: flavor, model: model, chunkLists: ($0.chunks, chunks),
                contentSizes: ($0.sizes, sizes), archiveStored: archiveStored)
        }
    }
}

extension VersionSize {
    /// The sizes of `versions` of `bundle` in `catalog` (each one it has), in that order,
    /// as `zinc list --sizes` reads them; changes nothing. Manifests, chunk lists and sizes files are
    /// read on several threads, a window of versions at a time, so a long history is
    /// neither read one file after another nor held whole; each version is read once,
    /// also as the previous of the next.
    public static func sizes(
        in catalog: Catalog, bundle: String, versions: [Int], model: CostModel = CostModel()
    ) throws -> [VersionSize] {
        try Names.validateBundleName(bundle)
        let entry = try catalog.index().bundle(bundle)
        let window = 4 * AvailableCores.count
        // One listing rather than a look-up per version: few are left where a version
        // needs an archive only while a distribution names it.
        let archives = Set(try catalog.storage.list("archives"))
        var sizes = [VersionSize]()
        var held = [Int: (manifest: Manifest, chunks: ChunkList?, sizes: ContentSizes?)]()
        for start in stride(from: 0, to: versions.count, by: window) {
            let wanted = Array(versions[start..<min(start + window, versions.count)])
            let previous = wanted.map { version in entry.versions.last { $0 < version } }
            let toRead = Array(Set(wanted + previous.compactMap { $0 }).subtracting(held.keys))
            let read = try parallelMap(count: toRead.count, workers: window) { i in
                let manifest = try catalog.manifest(bundle: bundle, version: toRead[i])
                return (manifest: manifest, chunks: catalog.chunkList(of: manifest), sizes: catalog.contentSizes(of: manifest))
            }
            held.merge(zip(toRead, read).map { ($0, $1) }) { $1 }
            let current = held
            sizes += try parallelMap(count: wanted.count, workers: nil) { i in
                let (manifest, chunks, sizes) = current[wanted[i]]!
                let archive = VersionFiles(bundle: bundle, version: wanted[i]).archive(nil)
                return try VersionSize(
                    manifest, chunks: chunks, sizes: sizes, previous: previous[i].map { current[$0]! }, model: model,
                    archiveStored: archives.contains(archive))
            }
            // Only the last may be the previous of the next window's first.
            held = held.filter { $0.key == wanted.last }
        }
        return sizes
    }
}
